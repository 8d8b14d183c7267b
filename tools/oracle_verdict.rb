# The 18xx.games engine's verdict on exports: does it accept every action,
# and if not, which action does it refuse first, and why.
#
# Run from the engine's folder (see /work/shared/oracle/README.md):
#   cd ~/.cache/t18 && T18_GAMES=g_1830,g_1860,g_18_ireland,g_1889 ENGINE_LOG_LEVEL=4 \
#     ruby -Ishim -Ilib /path/to/tools/oracle_verdict.rb < list-of-paths
# One JSON line per path: {"path", "refused": action id or null, "error", "finished"}.
# Used by tools/one_mistake.py (--oracle); it only drives the engine.
require 'engine'
require 'json'

$stdout.sync = true
paths = ARGV.empty? ? $stdin.each_line.map(&:strip).reject(&:empty?) : ARGV
paths.each do |path|
  out = { 'path' => path }
  begin
    data = JSON.parse(File.read(path))
    game = Engine::Game.load(data)
    if game.exception
      # on a refusal the engine stops there and keeps the refused action's id
      out['refused'] = game.last_processed_action
      out['error'] = game.exception.message.to_s[0, 300]
    else
      out['refused'] = nil
    end
    out['finished'] = game.finished
  rescue StandardError, ScriptError => e
    out['refused'] = -1
    out['error'] = "#{e.class}: #{e.message.to_s[0, 300]}"
  end
  puts JSON.generate(out)
end
