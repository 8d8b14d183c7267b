"""The analyser: history, league table, charts, HTML report, hindsight routes."""
