"""The catalogue of rule ids that findings use (``railcheck rules explain``,
``railcheck rules list --ids``, docs/rules.md).

Each entry: what the rule means, where it comes from (the published rules of
the title, or railcheck's own notation and checks), and an example finding.
``tests/test_rule_catalogue.py`` checks that every id the code emits is here
and every id here is emitted somewhere; docs/rules.md is generated from this
module (``python -m railcheck.rule_catalogue > docs/rules.md``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

R1830 = "1830 rules (Avalon Hill, 1986)"
R1857 = "1857 rule summary (docs/1857.md)"
R1860 = "1860 rule summary (docs/1860.md)"
RKANSAI = "Kansai rule summary (docs/1890.md)"
RIRE = "18Ireland rule summary (docs/18Ireland.md)"
R1889 = "Shikoku 1889 rules (Grand Trunk Games; docs/1889.md)"
SITE = "18xx.games records"
OWN = "railcheck (not a rule of the game)"


@dataclass(frozen=True)
class Rule:
    id: str
    summary: str        # one line: what the finding says is wrong
    meaning: str        # what the rule means, in full
    source: str         # where it comes from
    example: str        # an action and the finding it gives
    severity: str = "error"


AREAS = {
    "auction": "the private auction (before the first stock round)",
    "bankrupt": "bankruptcy",
    "board": "the map itself",
    "checkpoint": "checkpoints written in a notation file",
    "components": "a title's components file (numbers the user supplies from the game box)",
    "kansai": "Kansai's own rules (docs/1890.md)",
    "dividend": "paying or withholding revenue",
    "emergency": "a president's money for a train the company must buy",
    "exchange": "exchanging a private for a share",
    "game": "the game as a whole",
    "import": "reading an 18xx.games export",
    "merger": "merger rounds (18Ireland: minors merging into majors)",
    "internal": "railcheck itself",
    "name": "names in the record",
    "notation": "the notation (hand-written game logs)",
    "or": "the operating round",
    "private": "private companies in the operating round",
    "round": "the sequence of rounds",
    "route": "running trains",
    "score": "the recorded result",
    "setup": "the start of the game",
    "stock": "the stock round",
    "tile": "laying track tiles",
    "token": "placing stations",
    "track": "laying track: limits and costs",
    "trains": "buying and owning trains",
    "turn": "whose turn it is",
}


def _r(id, summary, meaning, source, example, severity="error"):
    return Rule(id, summary, meaning, source, example, severity)


RULES: list[Rule] = [
    # --- Kansai (docs/1890.md; rule numbers in brackets)
    _r("components.unknown", "a kind of check not made: its number is unknown",
       "A title whose numbers come from a components file (Kansai) makes no check that needs a "
       "number the file leaves `unknown` (or that has no file), nor one that needs an amount "
       "which depends on such a number (a cash or a share price not sure: a payment over it, a "
       "checkpoint of it, the net worths; `railcheck/unsure.py`): the report says so once per "
       "kind of check, with the first unknown key (or why) and how many actions it concerned.",
       OWN,
       "game.18xx:3:1: info [components.unknown] train prices not checked (14 actions): "
       "trains.\"3\".price is unknown (kansai-components.yaml)", severity="info"),
    _r("kansai.unchecked", "what the Kansai checker does not check",
       "Kansai's checker does not check the depot's order of sale (the summary does not state "
       "it) nor the end after \"10 faz gry\" (no phase table matches it), whatever "
       "the components file gives; without the starting cash, the bank or the market it does "
       "not track money at all (cash, the bank, share prices, limits, net worths). The report "
       "says so.",
       OWN, "info [kansai.unchecked] Kansai: money is not tracked (starting_cash is unknown): "
       "...", severity="info"),
    _r("kansai.conversion", "a company converts or privatises that may not",
       "Only minors 1-4 convert into Kinki Nippon Railway (K1); only Kobe Electric Railway (M5) "
       "privatises (N5).",
       f"{RKANSAI}: K1, N5", "M5 convert   ->  M5 does not convert into KNR (only minors 1-4 do)"),
    _r("kansai.conversion_early", "a minor converts into KNR before its phase",
       "Osaka Electric Railroad converts from phase 2, Kanan Railway from phase 2 or 3 (the "
       "summary gives both; never before 2), Nara Electric Railway from phase 4; Osaka Railway "
       "when KNR starts.",
       f"{RKANSAI}: N1-N4, K2-K5",
       "M4 convert   ->  M4 (Nara Electric Railway) may convert into KNR from phase 4; this is "
       "phase 3"),
    _r("kansai.conversion_skipped", "a mandatory conversion into KNR left undone",
       "A minor whose conversion is mandatory in the current phase (Osaka Electric Railroad in "
       "2+, Kanan Railway by 4, Nara Electric Railway in 5) converts in its first turn of that "
       "phase; flagged at the turn's last action, and the replay converts it.",
       f"{RKANSAI}: K1, N1, N2, N4",
       "M2 pass   ->  M2 (Osaka Electric Railroad) must convert into KNR from phase 2+; its turn "
       "in phase 2+ ended without it (K1)"),
    _r("kansai.knr_at_once", "another company operates before KNR once Osaka Electric Railroad "
       "converted",
       "KNR operates at once when Osaka Electric Railroad converts, whatever the order.",
       f"{RKANSAI}: K8", "JR lay 7 C10   ->  KNR operates at once after Osaka Electric Railroad "
                         "converts (K8), before JR"),
    _r("kansai.knr_reserved_share", "a fifth KNR share bought",
       "Only 4 KNR shares are for sale; the others are reserved for the minors' conversions.",
       f"{RKANSAI}: K7", "Aki buy KNR   ->  only 4 KNR shares are for sale and 4 have been bought"),
    _r("kansai.minor_closed", "a minor operates after converting or privatising",
       "A converted or privatised minor closes.", f"{RKANSAI}: N1-N5",
       "M2 run 2 G11-F10 = 40   ->  M2 (Osaka Electric Railroad) has converted or closed"),
    _r("kansai.jr_full_dividend", "JR pays a full dividend before phase 6",
       "Until phase 6 JR is the state railway: it withholds or pays half (half the revenue, "
       "rounded up to 20, to its treasury, the rest to the shareholders).",
       f"{RKANSAI}: J2",
       "JR payout   ->  JR is the state railway until phase 6 (this is phase 4): it withholds "
       "or pays half; of Y130, Y80 to the treasury and Y50 to the shareholders (J2)"),
    _r("kansai.jr_two_lays_one_hex", "JR's two lays of a turn on one hex",
       "In phases 1-3 JR lays or upgrades two tiles on different hexes.",
       f"{RKANSAI}: J3, F11",
       "JR lay 8 C10   ->  JR lays its second tile of the turn on C10, where it laid the first"),
    _r("kansai.jr_par", "JR parred at another price than 100",
       "JR's par value is 100.", f"{RKANSAI}: J0", "Chie par JR 90   ->  JR's par value is Y100"),
    _r("kansai.par_setter", "KNR's or OMS's par set by the wrong player",
       "KNR's par is set by the owner of Osaka Electric Railroad, OMS's by the owner of Osaka "
       "Municipal Electric Railway.", f"{RKANSAI}: K6, N2, C5, P7",
       "Aki par KNR 80   ->  KNR's par value is set by the owner of M2 (Chie), not by Aki"),
    _r("kansai.late_private_early", "a late private bought before the first 3-train",
       "The late privates may be bought once the first 3-train is sold.", f"{RKANSAI}: L0",
       "Aki buy KRTR   ->  KRTR is a late private: it may be bought once the first 3-train is "
       "sold (phase 1+, no 3-train sold yet)"),
    _r("kansai.krtr_fee", "Kobe Rapid Transit's station ignored where the rules do not allow it",
       "Every company but JR and OMS may pay 100 to ignore KRTR's station in Kobe, once KRTR "
       "has started.", f"{RKANSAI}: L2",
       "JR ignore KRTR   ->  JR may not pay to ignore KRTR's station"),
    _r("kansai.krtr_not_paid", "a run past KRTR's station in Kobe without the fee of 100",
       "A company that did not pay 100 (and had no station in Kobe before KRTR started) does "
       "not run through Kobe past KRTR's station; a fee other than 100 is not the fee.",
       f"{RKANSAI}: L2",
       "KNR ignore KRTR for 50   ->  KNR pays Y50 to ignore KRTR's station; the fee is Y100"),
    _r("kansai.free_share_sale", "a free Hanshin or Keihan share sold before the president's "
       "certificate is bought",
       "The share that Hanshin Tramway (Keishin Tramway) gives of Hanshin Electric Railroad "
       "(Keihan) may be sold only once that company's president's certificate is bought.",
       f"{RKANSAI}: C1, C4, P4, P5",
       "Ben sell HER   ->  Ben's HER share is the free one of Hanshin Tramway: it may be sold "
       "only once HER's president's certificate is bought"),
    _r("kansai.oms_area", "OMS runs outside Osaka",
       "With the rule book's reading `oms_area_only: true` (the summary is garbled: C6), OMS "
       "runs only between the four Osaka cities.", f"{RKANSAI}: C6",
       "OMS run 6 F10-C9 = 100   ->  OMS runs only in Osaka; C9 is outside"),
    _r("kansai.minor_sale_round", "a minor bought in the other round",
       "With the rule book's reading `minors_sold_in` (the summary does not say: N0), minors are "
       "bought in the auction or in stock rounds.", f"{RKANSAI}: N0",
       "Aki buy M2   ->  the minors are sold in the auction, not in the stock round"),
    _r("kansai.not_in_play", "a company the scenario leaves out",
       "A scenario of the rule book (the components file's `not_in_play`: Hanshin Railways "
       "has 5 privates, 1 minor and 4 public companies) leaves companies out; nothing may be "
       "done with them.", "1890 rule book, scenarios A-D ('Companies')",
       "Chie buy M1   ->  M1 is not in play in the scenario Hanshin Railways"),
    _r("kansai.oms_early", "Osaka Municipal Subway operates before phase 4",
       "OMS starts in phase 4.", f"{RKANSAI}: C5",
       "OMS lay 8 F12   ->  Osaka Municipal Subway starts in phase 4; this is phase 3"),
    _r("kansai.one_station_per_hex", "a second station of a company on one hex",
       "A company has at most one station per hex.", f"{RKANSAI}: O2a",
       "KNR token F10   ->  KNR already has a station on F10"),
    _r("kansai.train_2plus2", "a 2+2 through more than two cities or off-boards",
       "A 2+2 runs through four places, at most two of them cities or off-board areas.",
       f"{RKANSAI}: O3b",
       "HER run 2+2 C9-D9-F10 = 90   ->  a 2+2 runs through at most two cities or off-boards; "
       "this one through 3"),

    # --- the private auction
    _r("auction.action", "an action that is not a bid or a pass in the auction",
       "In the waterfall auction of the privates (1830) a player may only bid on a private, "
       "buy the cheapest one, or pass.",
       f"{R1830}: Private Companies, the initial auction",
       "Alice par PRR 100   ->  only bids and passes are allowed in the private auction, not 'par'"),
    _r("auction.actor", "the auction's action is not taken by a player",
       "Only players take part in the private auction.",
       f"{R1830}: Private Companies, the initial auction",
       "PRR bid CA 170   ->  PRR is not a player in this round's sense: auction actions are taken by players"),
    _r("auction.bid_price", "a bid without a price",
       "In a choose-and-bid auction every bid names its amount, at least the high bid plus the "
       "increment.",
       f"{R1857}: private auction",
       "Bob bid CA   ->  a bid needs a price: at least $165 for CA"),
    _r("auction.buy_not_cheapest", "a private bought outright that is not the cheapest",
       "Only the cheapest unsold private may be bought at its price; the others can only be bid on "
       "and are sold when they become the cheapest.",
       f"{R1830}: Private Companies, the initial auction",
       "Alice buy CA 160   ->  only the cheapest private (SV at $20) can be bought outright; ..."),
    _r("auction.buy_price", "the cheapest private bought at another price than its (reduced) price",
       "The cheapest private is bought at its face value, less the reductions made when every "
       "player passed on it.",
       f"{R1830}: Private Companies, the initial auction",
       "Alice bid SV 25   ->  SV is the cheapest private and is bought at its price $20, not $25"),
    _r("auction.cash", "a bid or purchase the player cannot pay",
       "A player may not bid more than their cash less what they have already bid on other "
       "privates; a purchase must be paid at once.",
       f"{R1830}: Private Companies, the initial auction",
       "Carol bid BO 700   ->  Carol bids $700 but has only $600 not committed to other bids"),
    _r("auction.chooser", "the wrong player chooses the next private",
       "In a choose-and-bid auction the winner of the last private (at first: the first player) "
       "chooses the next one to auction.",
       f"{R1857}: private auction",
       "Bob choose CS   ->  Bob may not choose the next private: it is Alice's choice (...)"),
    _r("auction.high_bidder", "the high bidder acts on their own high bid",
       "The player holding the high bid waits until the others have bid or passed.",
       f"{R1857}: private auction",
       "Alice bid CA 170   ->  Alice holds the high bid on CA ($165) and waits for the others ..."),
    _r("auction.in_progress", "a new private chosen while another is being auctioned",
       "A private is auctioned to the end before the next one is chosen.",
       f"{R1857}: private auction",
       "Bob choose DH   ->  CA is being auctioned (high bid $165 by Alice); the next ..."),
    _r("auction.lot", "a bid on another private than the one up for auction",
       "While a private is up for auction only bids on it (or passes) are allowed.",
       f"{R1857}: private auction",
       "Bob bid DH 75   ->  CA is up for auction; Bob may bid only on it (or pass), not on DH"),
    _r("auction.bid_implied", "a bid for the turn written at one price, the record's later "
       "lines at another",
       "A bid for the turn at another legal price is legal at its line (1860's auction: the "
       "winner pays his bid); the record's later lines then show another game (the bidder short "
       "of cash for a later purchase). When the replay ends with errors, the first of a kind a "
       "price can cause, the player it names having bid for a turn before it, and no par or "
       "dividend explains them, railcheck replays the record with each of his 4 latest bids "
       "for the turn before that error at each of the 8 multiples of 5 below the written one; "
       "when exactly one such change makes every error disappear, the bid is flagged and the "
       "game is taken at the implied price (railcheck/following/diagnose.py, "
       "docs/one-mistake.md); else the original findings stand.",
       OWN,
       "Player 4 bid 60 (export #17)  ->  Player 4 bids £60 for the turn, but the record's later "
       "lines go on as if £25 (as written: #116, ... — the first finding the written bid "
       "gives): taken as £25"),
    _r("auction.min_bid", "a bid below the minimum",
       "A bid must beat the highest bid on the private by the increment ($5 in 1830); the first "
       "bid on a private must be at least its face value plus the increment.",
       f"{R1830}: Private Companies, the initial auction",
       "Bob bid CA 168   ->  bid of $168 is too low: the highest bid on CA is $165, so the minimum bid is $170"),
    _r("auction.must_choose", "a bid or pass when a private must be chosen first",
       "In a choose-and-bid auction nothing happens until the chooser has put a private up.",
       f"{R1857}: private auction",
       "Alice pass   ->  Alice must choose a private to auction"),
    _r("auction.no_lot", "a bid when no private is up for auction",
       "Bids are made on the private that the chooser has put up.",
       f"{R1857}: private auction",
       "Bob bid CA 170   ->  no private is up for auction: Alice first chooses one ..."),
    _r("auction.passed", "a player bids again after passing on this private",
       "A player who passed on the private up for auction is out of that auction.",
       f"{R1857}: private auction",
       "Carol bid CA 180   ->  Carol passed on CA and may not bid on it again"),
    _r("auction.resolving", "another action while a private is auctioned among its bidders",
       "When a private with several bids becomes the cheapest, only its bidders bid on it (or "
       "pass) until one bid is left.",
       f"{R1830}: Private Companies, the initial auction",
       "Bob bid BO 230   ->  CA is being auctioned among its bidders; Bob may only bid on it or pass"),
    _r("auction.must_buy", "the winner of a bid for the turn does something else than buy",
       "In 1860's auction the player who won the turn (or everybody passed and it fell to the "
       "opener) must at once buy one item: a private at face value or a president's "
       "certificate at a par of its section.",
       f"{R1860}: L4, L6",
       "Bob pass   ->  Bob won the turn and must buy an item (BHC, YHC, C&N)"),
    _r("auction.no_winner", "a purchase in 1860's auction before anybody won the turn",
       "An item is bought only by the winner of the bidding for the turn.",
       f"{R1860}: L3, L4",
       "Bob bid BHC 30   ->  nobody has won the turn yet: Alice bids or passes"),
    _r("auction.price", "a private bought in 1860's auction at another price than its face value",
       "The winner of the turn pays their bid and then the private's face value. The record "
       "says it was bought: it is taken at the written price, at most the buyer's cash, as "
       "18xx.games takes it.",
       f"{R1860}: L4",
       "Bob bid BHC 35   ->  BHC is sold at its face value £30, not £35"),
    _r("auction.sold", "a bid on a private that is already owned",
       "A private is sold once.",
       f"{R1830}: Private Companies, the initial auction",
       "Bob bid CA 170   ->  CA is already owned by Alice"),
    _r("auction.unfinished", "the record leaves the auction before every private is sold",
       "The first stock round starts only when every private is sold; the record goes on to "
       "another round while some are unsold (they stay with the bank).",
       f"{R1830}: Private Companies, the initial auction",
       "(an SR action while BO is unsold)  ->  the auction is not over (BO unsold) but the record goes on ..."),
    # --- bankruptcy
    _r("bankrupt.leftovers", "a bankrupt player's privates and shares kept after all (18Ireland B5)",
       "In 18Ireland a bankrupt president's privates and the shares he could not sell leave the "
       "game with him (B5); 18xx.games keeps them his (he draws their income, a company may buy "
       "his privates). When the record's next lines go on as if they stayed his, the bankruptcy "
       "is flagged once and they are kept, as the record has it (the option site_bankruptcy "
       "plays every game so, without the finding).",
       RIRE,
       "(Dana bankrupt holding DAR; DDR buys it from her later)  ->  Dana goes bankrupt "
       "holding DAR: by 18Ireland B5 they leave the game with the player, but ..."),
    _r("bankrupt.no_president", "bankruptcy declared for a company without a president",
       "Only the president of a company that must buy a train can go bankrupt for it.",
       f"{R1830}: Bankruptcy",
       "PRR bankrupt   ->  PRR has no president"),
    _r("bankrupt.not_needed", "bankruptcy while the train can be paid",
       "A player goes bankrupt only when their company must buy a train and the company's "
       "treasury, the president's cash and everything the president may sell are not enough.",
       f"{R1830}: Bankruptcy; Operating Round, forced train purchase",
       "B&O bankrupt   ->  Carol can raise $620 (cash, sellable shares and B&O's treasury), enough for ..."),
    _r("bankrupt.not_president", "bankruptcy declared by a player who is not the president",
       "Bankruptcy is declared by the president of the company that must buy a train.",
       f"{R1830}: Bankruptcy",
       "Bob bankrupt   ->  Bob is not the president of B&O"),
    # --- board
    _r("board.hex", "a hex that is not on the map",
       "An action names a hex the title's map does not have.",
       OWN, "PRR lay 57 Z99 0   ->  there is no hex Z99 on the map"),
    _r("board.node", "a city or town that is not on the map",
       "An export names a city (tile-index) that no tile on the map has.",
       SITE, "(export) place_token city=57-9-0   ->  no tile 57-9 is on the map (node 57-9-0)"),
    # --- checkpoints
    _r("checkpoint.field", "a checkpoint of a field railcheck does not know",
       "Checkpoints check cash, treasury, price, worth (players), trains and president.",
       f"{OWN}: docs/notation.md, checkpoints",
       "check Alice height 3   ->  unknown checkpoint field 'height'"),
    _r("checkpoint.mismatch", "the game's state differs from a checkpoint in the record",
       "A checkpoint ('check Alice cash 120') states what the record's writer saw at the table; "
       "the replay disagrees. Usually an earlier action was written wrong.",
       f"{OWN}: docs/notation.md, checkpoints",
       "check Alice cash 120   ->  Alice has $100, the record says $120"),
    _r("checkpoint.subject", "a checkpoint of an unknown player or company",
       "The subject of a checkpoint must be a player, corporation or private of the game.",
       f"{OWN}: docs/notation.md, checkpoints",
       "check Zed cash 100   ->  unknown subject 'Zed'"),
    # --- dividends
    _r("dividend.kind", "a dividend the title does not know",
       "1830 knows 'payout' and 'withhold'; other titles add half pays.",
       f"{R1830}: Operating Round, dividends",
       "PRR dividend half   ->  1830 knows no 'half' dividend; allowed: payout, withhold"),
    _r("dividend.implied", "a dividend written as one kind, the record's later lines as another",
       "A payout written as a withholding (or the other way) is legal at its line; the record's "
       "later lines then show another game (a share price, and so the operating order, or a "
       "player's cash the written kind does not give). When the replay ends with errors, the "
       "first of a kind a price can cause, and no par explains them, railcheck replays the "
       "record with each of the 12 most recent dividend lines before that error (and up to 6 "
       "older ones of the companies that error names or its player holds) at each other "
       "kind the record uses; when exactly one such change makes every error disappear, the "
       "dividend is flagged with both kinds and the game is taken at the implied one "
       "(railcheck/following/diagnose.py, docs/one-mistake.md); else the original findings "
       "stand.",
       OWN,
       "NYNH dividend withhold (export #274)  ->  NYNH withholds, but the record's later lines "
       "go on as if it pays out (as written: #294, ... — the first finding the written "
       "dividend gives): taken as payout"),
    _r("dividend.missing", "a company ran but neither paid out nor withheld",
       "After running its trains a company pays its revenue to the shareholders or withholds it; "
       "railcheck takes a missing decision as withheld.",
       f"{R1830}: Operating Round, dividends",
       "(PRR runs for $80, then B&O acts)  ->  PRR ran for $80 but neither paid out nor withheld; taken as withheld"),
    _r("dividend.twice", "a second dividend decision in one turn",
       "A company decides once per operating turn.",
       f"{R1830}: Operating Round, dividends",
       "PRR payout   ->  PRR already decided its dividend"),
    # --- emergency money
    _r("emergency.cash", "the company and its president together cannot pay the train",
       "When a company must buy a train, its president adds cash; if that is not enough the "
       "president sells shares, and only then may go bankrupt. A purchase the record makes "
       "anyway is flagged and taken as bought (the president's cash goes below zero).",
       f"{R1830}: Operating Round, forced train purchase",
       "B&O buy train 4   ->  B&O has $20 and its president Carol has $100; the ..."),
    _r("emergency.cheapest", "a company using its president's money buys a train that is not the cheapest",
       "With the president's money a company buys the cheapest train the depot offers.",
       f"{R1830}: Operating Round, forced train purchase",
       "B&O buy train D   ->  B&O needs its president's money and must buy the cheapest train: a 4-train ..."),
    _r("emergency.not_needed", "a player sells shares in an operating round without need",
       "A player sells shares in an operating round only to raise money for a train their "
       "company must buy and cannot pay.",
       f"{R1830}: Operating Round, forced train purchase",
       "Carol sell 2 PRR   ->  Carol may not sell shares: B&O owns a train"),
    _r("emergency.presidency", "a president gives up the presidency of the company they raise money for",
       "Shares sold to raise money for a train may not cost the president the presidency of "
       "that company; in 1889 they may cost him no presidency at all "
       "(``operating.emergency_keeps_presidencies``).",
       f"{R1830}: Operating Round, forced train purchase; {R1889}: Operating Round, forced "
       "train purchase",
       "Carol sell 3 B&O   ->  Carol may not give up the presidency of B&O while raising money for it"),
    _r("emergency.price", "a train bought from another company above face value with the president's money",
       "With the president's money a train from another company costs at most its face value.",
       f"{R1830}: Operating Round, forced train purchase",
       "B&O buy train 4 from PRR 400   ->  with the president's money a train from another company costs at most its face value $300"),  # noqa: E501
    _r("emergency.source", "an emergency train bought elsewhere than the depot",
       "In an emergency only the depot sells (18xx.games's 1830; 1889's rules: "
       "``operating.emergency_from_others: none``).",
       f"{R1830}: Operating Round, forced train purchase; {R1889}: Operating Round, forced "
       f"train purchase; {SITE}",
       "B&O buy train 3 from pool   ->  in an emergency only the depot sells"),
    _r("emergency.too_much", "a president sells more shares than the train needs",
       "A president raising money for a train sells no more than needed: a smaller sale would "
       "still have paid for the train.",
       f"{R1830}: Operating Round, forced train purchase",
       "Carol sell 4 PRR   ->  Carol sells more than needed: 40% of PRR brings $360; ..."),
    # --- exchanges
    _r("exchange.company", "an exchange of something that is not an exchangeable private",
       "Only a private with an exchange power (1830: the Mohawk & Hudson for an NYC share) is "
       "exchanged for a share.",
       f"{R1830}: Private Companies, special powers",
       "CA exchange NYC   ->  CA cannot be exchanged for a share"),
    _r("exchange.corporation", "an exchange for a share of the wrong corporation",
       "A private is exchanged only for a share of the corporation its power names.",
       f"{R1830}: Private Companies, special powers",
       "MH exchange PRR   ->  MH can be exchanged only for a NYC share"),
    _r("exchange.no_share", "no share left to exchange for",
       "The share comes from the IPO or the bank pool (as the title says); none is left there.",
       f"{R1830}: Private Companies, special powers",
       "MH exchange NYC   ->  no NYC share is left in the IPO or the bank pool"),
    _r("exchange.owner", "an exchange of a private not owned by a player",
       "Only a player who owns the private may exchange it.",
       f"{R1830}: Private Companies, special powers",
       "MH exchange NYC   ->  MH must be owned by a player to be exchanged"),
    # --- the whole game
    _r("game.over", "actions after the end of the game",
       "The game ended (the bank broke and the set of operating rounds was finished, or a "
       "player went bankrupt); later actions are ignored.",
       f"{R1830}: End of the game",
       "Alice pass   ->  the game already ended (the bank broke); this and any later action is ignored"),
    # --- import
    _r("import.malformed", "an export entry that cannot be read",
       "An action of the 18xx.games export lacks a field railcheck needs, or has one of the "
       "wrong type; it is skipped.",
       SITE, "(export)  ->  entry 12 of the export's actions has no 'type'; skipped"),
    _r("import.unsupported", "an export action railcheck does not know yet",
       "The export holds an action type that railcheck does not replay; it is skipped (a "
       "warning: later findings may follow from it).",
       SITE, "(export)  ->  action type 'program_share_pass' is not supported by railcheck yet; skipped",
       "warning"),
    _r("internal.error", "railcheck failed on this action",
       "A bug of railcheck, not of the game: the replay stops at this action. Please report it "
       "with the game file.",
       OWN, "(any)  ->  railcheck could not check this action (KeyError: 'x'); the replay stops here ..."),
    # --- names
    _r("notation.syntax", "a line of the notation that cannot be read",
       "A line that does not parse (a misspelt keyword, a missing train type or tile) is "
       "reported on its line and column with a suggestion, skipped, and the rest of the game "
       "is checked. A later finding may follow from the skipped line.",
       f"{OWN}: docs/notation.md",
       "B&O payot   ->  after 'B&O', found 'payot' (did you mean payout?)"),
    _r("record.too_long", "a record longer than railcheck reads",
       "A file with more actions than any game has (railcheck reads at most the first "
       "100,000 lines of a notation file, or entries of an export's actions, so that a "
       "check's memory and time stay bounded whatever the input): the rest are counted, said "
       "in this one finding, and not checked.",
       f"{OWN}: docs/notation.md",
       "4,545,454 lines of 'Alice pass'   ->  the record goes on for 4,445,454 more lines"),
    _r("record.twice", "a line written twice, the copy legal but not what the record goes on from",
       "A line that repeats the record's line before it word for word (the same actor, the "
       "same fields; not a pass) is legal a second time, but the record's next 40 lines go on "
       "with fewer errors as if it were written once (a sale written twice, then a purchase "
       "the seller's cash no longer covers): the copy is flagged and dropped. A copy the "
       "rules refuse keeps the refusal's own rule, and is dropped the same way "
       "(railcheck/following/rounds.py, docs/one-mistake.md).",
       OWN,
       "(export) #342 sell_shares PRR_3, #343 the same again  ->  the line repeats #342 word "
       "for word, and the record's next lines go on as if it were written once: the copy "
       "dropped"),
    _r("name.unknown", "a name the game does not have",
       "An action names a corporation, private, train source or actor that this game does not "
       "have.",
       OWN, "Alice buy XYZ ipo   ->  unknown corporation 'XYZ'"),
    _r("notation.unknown_name", "a name in a notation line that the title does not have",
       "A notation line names a player, corporation, private, train or tile that the header "
       "(players:) and the title do not know; the line is skipped. Often a typo: the message "
       "suggests the closest name.",
       f"{OWN}: docs/notation.md",
       "Alice buy PPR ipo   ->  unknown corporation 'PPR' (did you mean PRR?)"),
    # --- the operating round
    _r("or.action", "an action that has no place in an operating round",
       "Corporations lay track, place stations, run, pay, buy trains and privates; players act "
       "only to raise money for a train or exchange a private.",
       f"{R1830}: Operating Round",
       "PRR par 100   ->  'par' is not an operating round action"),
    _r("or.not_floated", "a company operates before it has floated",
       "A corporation operates once enough of its shares are sold (60% in 1830, 50% in 1857).",
       f"{R1830}: Operating Round; Stock Round, floating",
       "NYC lay 57 E5 0   ->  NYC has not floated and does not operate"),
    _r("or.player_action", "a player acts in an operating round without reason",
       "In an operating round players act only for their company (money for a forced train "
       "purchase, exchanging a private).",
       f"{R1830}: Operating Round",
       "Alice buy PRR ipo   ->  players act in an operating round only ..."),
    _r("or.step_order", "an operating step out of order",
       "A corporation's turn goes: lay track, place a station, run trains, pay or withhold, buy "
       "trains (and privates); an earlier step after a later one is not allowed.",
       f"{R1830}: Operating Round, order of a company's turn",
       "PRR lay 57 H12 0 (after its run)  ->  PRR cannot lay track after running trains"),
    _r("or.turn_missing", "a company with trains took no turn",
       "Every floated corporation operates in each operating round, and one that owns trains "
       "must run them.",
       f"{R1830}: Operating Round",
       "(OR 3.1 without B&O)  ->  B&O took no turn in OR 3.1 although it owns trains (3) and must run them"),
    # --- privates in the OR
    _r("private.buy_phase", "a company buys a private before it may",
       "Corporations may buy privates from players only from phase 3 on (1830).",
       f"{R1830}: Operating Round, buying private companies",
       "PRR buy CA from Alice 160   ->  companies cannot buy privates in phase 2"),
    _r("private.cash", "a company buys a private it cannot pay",
       "The price is paid from the corporation's treasury.",
       f"{R1830}: Operating Round, buying private companies",
       "PRR buy CA from Alice 320   ->  PRR has $200, CA costs $320"),
    _r("private.closed", "an action with a closed private",
       "Closed privates (all close at the first 5-train in 1830) have no owner, revenue or power.",
       f"{R1830}: Private Companies, closing",
       "PRR buy CA from Alice 160   ->  CA is closed"),
    _r("private.no_sale", "a private that may not be sold to a company",
       "Some privates may never be sold to a corporation (the title says which).",
       f"{R1830}: Private Companies",
       "PRR buy BO from Carol 220   ->  BO may not be sold to a company"),
    _r("private.owner", "a company buys a private that no player owns",
       "Corporations buy privates from players.",
       f"{R1830}: Operating Round, buying private companies",
       "PRR buy CA 160   ->  CA is owned by B&O, not a player"),
    _r("private.seller", "a private bought from a player who does not hold it",
       "In a stock round a player buys a private from the player who holds it; a record that "
       "names another seller is wrong.",
       f"{R1830}: Stock Round, private companies sold between players",
       "Bob buy private DH from Carol for 60   ->  DH is held by Alice, not Carol"),
    _r("private.cert_limit", "a private bought from a player over the certificate limit",
       "A private counts as a certificate (1830; 1860 and 18Ireland: "
       "cert_limit_includes_privates), so a player at the certificate limit may not buy one "
       "from another player. The purchase is taken as written (the replay stays with the "
       "record); 18xx.games checks no limit on such a purchase.",
       f"{R1830}: Stock Round, certificate limit; private companies",
       "Alice buy private DH from Carol for 41   ->  Alice holds 11 certificates; DH would "
       "exceed the limit of 11; taken as bought, as the record says"),
    _r("private.trade_phase", "players trade privates where the rules do not allow it",
       "Players may buy privates from each other in their stock-round turn only in the "
       "phases that allow it (1830: phases 2 to 4, from the second stock round; 1889: "
       "never).",
       f"{R1830}: Stock Round, private companies sold between players",
       "Bob buy private DH from Alice for 60   ->  players may not buy privates from each other "
       "in phase 5"),
    _r("private.power", "a private's special power used where it does not apply",
       "A private's power (a free tile lay, a station) applies only on its hexes, with its "
       "tiles, by its owner, in its owner's turn.",
       f"{R1830}: Private Companies, special powers",
       "PRR lay 57 E5 0 with CS   ->  CS can lay track only on B20, not E5"),
    _r("private.not_in_game", "a private that the number of players leaves out of the game",
       "Some privates are in the game only with enough players (``companies[].min_players``): "
       "1889's South Iyo Railway with 3 or more, the Uno-Takamatsu Ferry with 4 or more.",
       f"{R1889}: Setup",
       "Alice bid UTF 150   ->  UTF is not in a game of 3 players (it needs 4 or more)"),
    _r("private.window", "a private's power used outside the window its rules give",
       "A ruleset gives each power a window (``special.<power>.window``): the tile lays of "
       "18Ireland's Donegal Railway, Board of Works, Tralee & Dingle and Irish Mail come only "
       "while the owning company lays track (``track_step``), not after it placed a station or "
       "ran; 1860's privates are exchanged for their share in a stock round only "
       "(``stock_round``, the summary's stock-round turn); 1889's Mitsubishi Ferry lays its port "
       "outside the operating turns of companies other players preside "
       "(``not_in_others_turns``), and the Ehime Railway's Ohzu tile is laid by the player who "
       "sells it to a company, at once (``on_sale``).",
       f"the title's published rules (the private's text; {R1889}: the privates); 18xx.games "
       "gives the same windows (abilities 'track', exchanges in the stock round's Exchange step)",
       "GSWR lay IR5 A19 0 with TDR (after GSWR's station)   ->  TDR's tile lay may be used "
       "only while GSWR lays track; its turn is past that (placing a station)"),
    _r("private.power_used", "a private's power used more often than allowed",
       "Each power may be used the number of times the title gives (usually once).",
       f"{R1830}: Private Companies, special powers",
       "PRR lay 57 B20 0 with CS   ->  CS's tile lay may be used 1 time and has been used"),
    _r("private.price", "a private bought outside its price range",
       "A corporation pays from half to twice the private's face value (1830).",
       f"{R1830}: Operating Round, buying private companies",
       "PRR buy CA from Alice 400   ->  CA (face $160) may be bought for $80 to $320, not $400"),
    _r("private.price_implied", "a private bought at one price, the record's later lines at "
       "another",
       "A purchase of a private at another price the rules take is legal at its line; the "
       "record's later lines then show other cash (the seller short of a later purchase, the "
       "buyer of a train or another private). When the replay ends with errors, the first a "
       "line short of cash, and the record gives its final result, railcheck replays the record "
       "with each earlier purchase of a private at the price the seller's net worth says (the "
       "nearest the first error also at the prices halving the buyer's range by which side the "
       "first later error is on); when exactly one such purchase makes every later error "
       "disappear and ends with the record's result, it is flagged with both prices and the "
       "game is taken at the implied one (railcheck/following/diagnose.py, "
       "docs/one-mistake.md); else nothing is said and the original findings stand. A price "
       "the rules refuse (private.price, private.cash) is searched the same way, its finding "
       "saying the price taken.",
       OWN,
       "PRR buy MH from Alice 230 ... (Alice short of cash later)   ->  PRR buys MH for $230, "
       "but the record's later lines go on as if for $220"),
    # --- rounds
    _r("ruleset.event", "an event a train or phase names that the title does not know",
       "A ruleset's train or phase names an event (``events: [...]``) that neither the shared "
       "mechanics nor the title's class carry out: the ruleset is wrong.",
       f"{OWN}: docs/architecture.md",
       "phase 3 events: [nationalise]   ->  1830 knows no event 'nationalise'"),
    _r("round.continues", "the record goes on with a stock round the rules ended",
       "Every player passed in a row, so the stock round is over; the record still has actions "
       "of it. railcheck does not invent rounds: it takes the round up again and the actions as "
       "written, with this one finding.",
       f"{R1830}: Stock Round (the round ends when all players pass in succession)",
       "Bob buy PRR   ->  SR 2 ended by the rules (every player passed in a row), but the record "
       "goes on with it"),
    _r("round.out_of_place", "a company's action after its operating round ended",
       "The operating round is over and the rules have begun a stock round, but the record "
       "has neither a player's action nor a marker of that stock round yet; a company's action "
       "there is out of place. railcheck does not invent rounds: it does not pass over the "
       "whole stock round to place the action in a later operating round. (A company that has "
       "not floated is said so: or.not_floated.)",
       f"{R1830}: sequence of play; {OWN}: docs/notation.md",
       "PRR lay 9 H14 r1   ->  PRR's 'lay' comes after the operating round ended, and the "
       "record has no action of SR 2 yet"),
    _r("round.skipped", "a round the rules make but the record never played",
       "The rules make another operating round here, but the record's next action belongs to a "
       "later round: one finding for the missing round (its companies' duties, such as running "
       "trains, were not done), and play goes on where the record is.",
       f"{R1830}: Operating Rounds (1 to 3 per set, by phase)",
       "Alice buy PRR   ->  Alice's 'buy' belongs to a later round: the record has no action of "
       "OR 3.2"),
    _r("round.marker", "a round marker that does not match the rules",
       "A round marker ('OR 2.1') in the record names another round than the rules give at "
       "that point (the number of ORs per set depends on the phase).",
       f"{R1830}: sequence of play; {OWN}: docs/notation.md",
       "OR 2.2   ->  the record says 'OR 2.2' here, but the rules make this SR 3 (phase 2: 1 OR per set)"),
    # --- routes
    _r("route.unchecked", "routes a title does not check on the map yet",
       "An info finding, once per game: the title's route rules are not checked on the map "
       "yet, so the revenue of each run was taken as recorded. The game may still be called "
       "legal; this says how far that goes.",
       f"{OWN}: docs/1860.md, docs/18Ireland.md",
       "the revenue of 3 1860 runs was taken as recorded: they were recorded without the track "
       "to check on the map", "info"),
    _r("route.blocked", "a run through a city whose slots other companies fill",
       "A route may not pass through a city all of whose station slots hold other companies' "
       "stations.",
       f"{R1830}: Operating Round, running trains",
       "PRR run 3: F2-E5-H12   ->  3-train runs through E5, whose slots are all filled by NYC, B&O"),
    _r("route.connection", "a run whose track does not join its stops",
       "A route follows continuous track from stop to stop.",
       f"{R1830}: Operating Round, running trains",
       "PRR run 2: H12-F2   ->  2-train: no track joins the stops H12 and F2 ..."),
    _r("route.distance", "a run with more stops than the train may visit",
       "An N-train counts at most N cities and towns (off-board areas count); 18Ireland's NH "
       "train crosses at most N hex edges.",
       f"{R1830}: Operating Round, running trains",
       "PRR run 2: H12-G11-F10   ->  2-train visits 3 stops (H12, G11, F10) but may visit only 2"),
    _r("route.gauge", "a run on narrow gauge track (18Ireland)",
       "18Ireland's trains run on broad gauge only; narrow track only adds the revenue of the "
       "towns it joins to a stop.",
       f"{OWN}: docs/18Ireland.md",
       "the 2H-train runs on narrow gauge track; trains run on broad gauge only"),
    _r("route.group", "a run that visits two stops of one group",
       "Some stops count as one (e.g. the two halves of an off-board area); a run counts only "
       "one of them.",
       f"{R1830}: Operating Round, running trains",
       "PRR run 4: ...   ->  4-train visits two stops of Chicago: ..."),
    _r("route.missing", "a company with trains and a route did not run",
       "A corporation must run its trains for the most it can; railcheck takes a missing run as "
       "earning nothing.  In 1860, where a corporation that does not run withholds (O4b), it "
       "is a payout with no run written (18xx.games asks for no dividend then); a dividend "
       "line after a run left out is read at the revenue the record's later lines go on from "
       "(the best run found on the map, or the company's last run: a line missing).",
       f"{R1830}: Operating Round, running trains",
       "(PRR buys a train without running)  ->  PRR owns trains (2) and has a route but did not run them; ..."),
    _r("route.no_path", "no track for the runs as given",
       "railcheck found no track that joins the stops of the runs without passing another stop, "
       "reusing track or two runs sharing track.",
       f"{R1830}: Operating Round, running trains",
       "PRR run 2: H12-E5   ->  2-train: no track joins H12 and E5 without passing another stop"),
    _r("route.offboard", "a run through an off-board area",
       "Off-board areas end a route; a run may only start or end there.",
       f"{R1830}: Operating Round, running trains",
       "PRR run 4: F2-D2-E5   ->  4-train runs through the off-board area D2; it may only start or end there"),
    _r("route.path", "a run's track written wrong",
       "The hexes given for a run's track must exist and lead from each stop to the next.",
       f"{OWN}: docs/notation.md, runs",
       "PRR run 2: H12-G11 via H12-Z1-G11   ->  2-train: there is no hex Z1"),
    _r("route.repeat_stop", "a run that visits a stop twice",
       "A route may not visit the same city or town twice.",
       f"{R1830}: Operating Round, running trains",
       "PRR run 3: H12-G11-H12   ->  3-train visits H12 twice"),
    _r("route.reused_track", "a run that uses a piece of track twice",
       "A route may not use the same track twice.",
       f"{R1830}: Operating Round, running trains",
       "PRR run 4: ...   ->  4-train uses the track at G11 edge 2 twice"),
    _r("route.revenue", "claimed revenue differs from the runs' worth",
       "The revenue of a run is the sum of its stops' values; the claimed amount differs. "
       "railcheck goes on with the claimed amount (what the line says was paid, was paid); "
       "when errors follow that the runs' worth explains (every later line fits with it), "
       "the game goes on from the worth instead, the finding saying so "
       "(railcheck/following/diagnose.py).",
       f"{R1830}: Operating Round, running trains",
       "PRR run 2: H12-G11 = 60   ->  the 2-train's run H12-G11 is worth $50, not the $60 claimed"),
    _r("route.shared_track", "two runs of one company share track",
       "Two trains of a company may not use the same track (they may meet in a city): a hex "
       "side, or the track joining two stops inside a hex (1860's Cowes: city, town and halt).",
       f"{R1830}: Operating Round, running trains",
       "PRR run 2: ... ; 3: ...   ->  2-train and 3-train both use the track at G11 edge 2"),
    _r("route.stop", "a run stops where there is no stop",
       "Each stop of a run is a city, town or off-board area on the hex named.",
       f"{OWN}: docs/notation.md, runs",
       "PRR run 2: H12-G10   ->  2-train: G10 has no city, town or off-board area to stop at"),
    _r("route.too_short", "a run with fewer than two stops",
       "A run joins at least two stops.",
       f"{R1830}: Operating Round, running trains",
       "PRR run 2: H12   ->  2-train has 1 stop; a run needs at least 2"),
    _r("route.hex_reentry", "an 1860 run that enters a hex twice",
       "In 1860 a train may not pass through the same tile twice (unless the option "
       "re_enter_hexes is chosen).",
       f"{R1860}: O3a",
       "C&N runs 3+2 ...   ->  the 3+2-train (G5 city 1-...-G5 city 0) enters G5 twice; a train "
       "passes a hex only once"),
    _r("route.halt_end", "an 1860 run that begins or ends at a halt",
       "Halts may only be passed: a run neither begins nor ends at one.",
       f"{R1860}: O3b",
       "IOW runs 2+1 I3-H4   ->  the 2+1-train (I3-H4 halt 0) begins or ends at the halt H4 halt 0; "
       "a run may only pass halts"),
    _r("route.receivership_max", "an 1860 corporation in receivership that runs for less "
                                 "than it can",
       "A corporation in receivership runs its trains for the most it can earn (and "
       "withholds). railcheck searches the map for a legal set of runs earning more (revenue "
       "and halt subsidy, both kept by its treasury) and flags the run only when it finds "
       "one, naming both sums and the better runs; the search may miss better runs (through "
       "a blocked city, skipping a town), never invents one. Not during nationalisation.",
       f"{R1860}: R2",
       "IOW runs 2+1 I3-H4-J4 (20)   ->  IOW is in receivership and must run for the most it "
       "can earn: its runs earn £30 (£20 + £10 subsidy), but 2+1: ... earn £50 ..."),
    _r("route.home", "no run of an 1860 corporation visits its home station",
       "One of the corporation's runs must pass through its home station.",
       f"{R1860}: O3c",
       "C&N runs ...   ->  no run of C&N visits its home station (F2); one must"),
    _r("route.network", "an 1860 run that shares no stop with the others",
       "Every further run must cross an earlier run at a station, town or halt: the runs form "
       "one network.",
       f"{R1860}: O3c",
       "IOW runs 2+1, 2+1   ->  the 2+1-train (2+1-1) shares no stop with IOW's other runs; "
       "the runs must form one network"),
    _r("route.subsidy", "a claimed halt subsidy differs from the run's",
       "Each halt a run counts pays the subsidy (10) to the treasury; the claimed subsidy "
       "differs. railcheck goes on with the claimed amount.",
       f"{R1860}: O1f, O3e",
       "C&N runs 3+2 ...   ->  C&N's 3+2-train run (...) earns a halt subsidy of £20, not the "
       "£30 claimed"),
    _r("route.token", "a run that includes no station of the company",
       "Every route includes at least one city with a station of the running company.",
       f"{R1830}: Operating Round, running trains",
       "PRR run 2: E5-D6   ->  2-train (E5, D6) includes no station of PRR"),
    _r("route.train", "a run with a train the company does not own",
       "A company runs the trains it owns, each once. The revenue claimed is what the table "
       "paid, so it is taken as paid (the record goes on from there).",
       f"{R1830}: Operating Round, running trains",
       "PRR run 3: ...   ->  PRR runs 1 3-train but owns 0 (trains: 2); the revenue claimed "
       "is taken as paid"),
    _r("route.twice", "a company runs its trains twice in one turn",
       "Trains run once per operating turn.",
       f"{R1830}: Operating Round, running trains",
       "PRR run 2: ...   ->  PRR already ran its trains this turn"),
    # --- score
    _r("score.end_differs", "the game ended otherwise than the record says",
       "The record (the header's 'end:' or the export) names another end than the replay "
       "reached. A warning; usually an earlier finding explains it.",
       f"{OWN}; {SITE}",
       "end: bank   ->  the record says the game ended by 'bank', but here the game did not end",
       "warning"),
    _r("score.site_differs", "a net worth differs from the recorded result",
       "The record's result (the header's 'result:', or the export's result) gives a player "
       "another net worth than the replay. A warning; usually an earlier finding explains it.",
       f"{OWN}; {SITE}",
       "result: Alice 5230, ...   ->  Alice's net worth is $5,200; the record's result says $5,230",
       "warning"),
    # --- setup
    _r("setup.players", "a number of players the title is not for",
       "1830 is for 2 to 6 players (railcheck's ruleset gives the range of each title).",
       f"{R1830}: components and set-up",
       "players: Alice   ->  1830 is for 2 to 6 players; this game has 1"),
    # --- stock round
    _r("stock.action", "an action that has no place in a stock round",
       "In a stock round players sell, start companies (par), buy one certificate, or pass.",
       f"{R1830}: Stock Round",
       "Alice lay 57 E5 0   ->  'lay' is not a stock round action"),
    _r("stock.bankrupt", "bankruptcy declared in a stock round",
       "Bankruptcy happens only when a company cannot buy a train it must own.",
       f"{R1830}: Bankruptcy",
       "Alice bankrupt   ->  bankruptcy happens only when a company cannot buy a required train"),
    _r("exchange.not_parred", "a private exchanged for a share of a corporation not started",
       "In 1860 a private is exchanged for its corporation's reserved share only once the "
       "corporation has a par.",
       f"{R1860}: S2.1",
       "CMH exchange C&N   ->  C&N has not been started; CMH can be exchanged only once it has a par"),
    _r("route.revenue_unknown", "an 1860 run recorded with neither its revenue nor its connections",
       "Older 18xx.games exports give a run's connections and halts without its revenue; "
       "railcheck computes it from them. With neither, it cannot.",
       f"{SITE}",
       "C&N run 2+1   ->  the run of the 2+1-train records no revenue and no connections to compute it from"),
    _r("token.not_allowed", "a station placed by a corporation that may not place one",
       "In 1860 a corporation in receivership or insolvent places no station, and nobody does "
       "once the Southern Railway has formed.",
       f"{R1860}: R1, O5d, N1",
       "FYN token B6.0   ->  FYN places no station: it is insolvent (its next station would "
       "cost £40; it has £380)"),
    _r("track.receivership", "track laid by a corporation in receivership",
       "A corporation without a president lays no track.",
       f"{R1860}: R1",
       "BHI&R lay 9 K7 r1   ->  BHI&R is in receivership (no president; its price £14) and "
       "lays no track (9 on K7)"),
    _r("track.second_lay", "a second tile lay that 1860 does not allow",
       "1860's second lay of a turn is a yellow tile without a city, after a first lay that "
       "was neither an upgrade nor a city tile.",
       f"{R1860}: O1",
       "IOW lay 745 I7 r0   ->  IOW's first lay (5 on I9) was a city tile: no second lay "
       "(745 on I7) this turn"),
    _r("track.blocked_connection", "an 1860 lay reached only through a city filled by others",
       "A city whose every slot holds other corporations' stations blocks a corporation's track "
       "as it blocks its runs: a lay joined to its network only through such a city is not "
       "connected. 18xx.games lets it through when the station came in a stock round (it does "
       "not compute the network again); the record says it was laid, so it is taken as laid "
       "(1860's track step, TrackStep.takes_blocked_connection; in 1830 and 1889 the lay is "
       "tile.connection, taken as laid when the record's later lines go on from it).",
       f"{R1860}: O3d, O1",
       "IOW lay 741 G11 r2   ->  tile 741 rotation 2 on G11 is not connected to IOW's network "
       "(no track of IOW reaches G11): IOW's track reaches G11 only through G7 city 0 (IWNJ), a "
       "city filled by other corporations' stations, which blocks it (O3d); 18xx.games allows "
       "it; taken as laid, as the record says"),
    _r("track.upgrade_no_train", "an upgrade by an 1860 corporation without a train",
       "In 1860 a corporation upgrades only track its own train can reach: with no train, none.",
       f"{R1860}: O1a, O1e",
       "C&N lay 751 K5 0   ->  C&N owns no train: it may not upgrade the yellow 741 on K5 (only "
       "track its own train can reach)"),
    _r("track.upgrade_reach", "an 1860 upgrade beyond the reach of the biggest train",
       "In 1860 a corporation upgrades only track its biggest train can reach: walking its track "
       "from its stations, a city there reached having counted fewer than the train's n cities "
       "(a town, a halt or plain track: at most n). Flagged; the tile stays.",
       f"{R1860}: O1a",
       "IWNJ lay 763 G5 0   ->  IWNJ upgrades G5, but its biggest train, a 2+1, counts 2 cities and "
       "G5 is 3 cities away; ..."),
    _r("track.no_new_track", "an 1860 upgrade that gives no new track and changes no value",
       "1860's track rule is semi-restrictive: an upgrade must give the corporation's biggest "
       "train new track it can reach, or change the value of a stop within its reach. Flagged; "
       "the tile stays.",
       f"{R1860}: O1d",
       "IOW lay 751 K5 0   ->  IOW's upgrade of K5 gives its trains no new track to use and "
       "changes no stop's value within their reach (values [0])"),
    _r("track.southern", "track laid after the Southern Railway formed",
       "From the stock round after the first 9+5, nobody builds track or stations.",
       f"{R1860}: N1",
       "C&N lay 742 K5 r0   ->  the Southern Railway has formed (the first 9+5, phase 9) and a "
       "stock round has followed: no more track is laid (742 on K5 in OR 13.1)"),
    _r("trains.receivership", "a train bought by a corporation in receivership that may not",
       "A corporation in receivership buys a train only when it has none, and only from the "
       "depot.",
       f"{R1860}: R2-R4",
       "C&N buy_train 3+2   ->  C&N is in receivership: it buys a train only when it has none"),
    _r("trains.trade", "a train bought from another corporation when 1860 forbids it",
       "No trade with a bankrupt corporation or one in receivership, none during "
       "nationalisation, and not the seller's last train when the buyer owns one.",
       f"{R1860}: O5a",
       "IWNJ buy train 2+1 from IOW for 200   ->  IWNJ owns 2 trains and IOW only one, its "
       "2+1"),
    _r("stock.buy_company", "a private bought from the bank that it does not sell",
       "In 1860 the bank sells the privates players sold back to it, and Fishbourne Ferry once "
       "the first 6+3 was bought.",
       f"{R1860}: S7, phases",
       "Alice buy_company FFC   ->  FFC is not available yet"),
    _r("stock.company_price", "a private bought from or sold to the bank at another price than "
       "the rules' (face value; face value less the fee)",
       "In 1860 the bank sells a private (one a player sold back to it, or Fishbourne Ferry) at "
       "its face value. The record says it was bought: it is taken at the written price when the "
       "player can pay it (18xx.games takes any price the player can pay), else at its face "
       "value. The bank buys a private at its face value less £30; another written price is "
       "taken as written (18xx.games pays it).",
       f"{R1860}: P2",
       "Bob buy private FFC for 9999   ->  the bank sells FFC at its face value £200, not "
       "£9999, which Bob cannot pay with £226; taken at £200"),
    _r("stock.home_track", "something else than the home track of a corporation that floated",
       "In 1860 a corporation floating on an empty home hex has its president lay a yellow tile "
       "there at once.",
       f"{R1860}: S2.1 (engine facts §5)",
       "Alice buy IOW   ->  C&N floated on an empty home hex: its president must first lay a yellow tile on F2"),
    _r("stock.reserved", "a reserved share bought",
       "The last share of BHI&R, FYN, C&N and IOW is kept for the exchange of a private until "
       "one is exchanged or Fishbourne Ferry is bought.",
       f"{R1860}: S16",
       "Alice buy IOW ipo   ->  IOW's last 10% share in the IPO is reserved for the exchange "
       "of RPSC"),
    _r("stock.section", "a corporation started (or a share bought) before its section opened",
       "1860's corporations come in four sections; the next opens when a corporation of the "
       "open ones has sold its IPO out or has operated. Until then none of its shares is "
       "parred or bought.",
       f"{R1860}: S10",
       "Alice par IWNJ 82   ->  IWNJ is in section 2; only sections up to 1 are open"),
    _r("stock.british_rail", "a stock action under British Rail",
       "Once 1860's nationalisation (British Rail) has begun there are no more stock rounds: "
       "only operating rounds follow until the game ends, and players neither buy nor sell.",
       f"{R1860}: N3",
       "Alice buy IOW ipo   ->  British Rail has formed: there are no more stock rounds, so "
       "Alice may not 'buy' (OR 13.5; 3 corporations still operate: IOW, FYN, BHI&R)"),
    _r("stock.sell_blocks", "a second sale of one corporation in a turn",
       "In 1860 and 1889 a player sells a corporation's shares at most once per turn "
       "(``stock.must_sell_in_blocks``).",
       f"{R1860}: S2.1; {R1889}: Stock Round",
       "Alice sell C&N   ->  Alice already sold C&N this turn"),
    _r("stock.sell_company", "a private sold to the bank when it may not be",
       "In 1860 a player may sell their private to the bank for its face value less 30, from the "
       "second stock round on, before buying in that turn.",
       f"{R1860}: S7",
       "Alice sell_company YHC   ->  privates are sold to the bank from stock round 2 on"),
    _r("stock.cash", "a purchase the player cannot pay",
       "A player pays for shares from their own cash. The record says the share was bought, "
       "so the replay takes it as bought (the cash goes below zero) and stays with the record.",
       f"{R1830}: Stock Round, buying shares",
       "Bob buy PRR ipo   ->  Bob has $50; a PRR share from the IPO costs $100; taken as bought, "
       "as the record says"),
    _r("stock.cert_limit", "a purchase over the certificate limit",
       "A player may hold at most the title's number of certificates for the number of players "
       "(1830: 20 with 3 players); shares in the yellow zone (and privates as the title says) "
       "are counted as the title says. The purchase is taken as written (the replay stays with "
       "the record).",
       f"{R1830}: Stock Round, certificate limit",
       "Carol buy PRR pool   ->  Carol holds 20 certificates; one more would exceed the limit of "
       "20; taken as bought, as the record says"),
    _r("stock.over_cert_limit", "a turn ended over the certificate limit",
       "A player over the certificate limit (a company's price left a zone whose shares do not "
       "count, so they count again) must sell down to the limit in their next stock-round "
       "turn; a turn that ends over the limit while a counting certificate could be sold is "
       "flagged (1857: \"przymusowa sprzedaż certyfikatów w turze danego gracza\").",
       f"{R1830}: Stock Round, certificate limit; {R1857}",
       "Bob pass   ->  Bob holds 17 certificates, over the limit of 16, and ends the turn in "
       "SR 10 without selling down to it"),
    _r("stock.holding_limit", "a purchase over the holding limit of one company",
       "A player may hold at most 60% of a corporation (more only in the zones where the "
       "market allows it). The purchase is taken as written (the replay stays with the "
       "record).",
       f"{R1830}: Stock Round, buying shares",
       "Alice buy PRR ipo   ->  Alice holds 60% of PRR; buying 10% more would exceed the 60% limit"),
    _r("stock.no_share", "a share that is not there",
       "The certificate bought is not in the IPO or the bank pool as the action says. When an "
       "export names a certificate that another player still holds (an earlier sale of it was "
       "refused), it is taken from that player as the record names it, and flagged. An export "
       "naming a certificate number the company has not, or (18Ireland, whose certificates "
       "railcheck moves as the site does) one that a player holds while an equal share is for "
       "sale, is flagged and taken as that equal share (18xx.games refuses it).",
       f"{R1830}: Stock Round, buying shares",
       "Bob buy PRR pool   ->  no 10% of PRR is available from the bank pool (...)"),
    _r("stock.not_parred", "a share bought of a company that has not been started",
       "A corporation's shares are bought only after its president's certificate set its par "
       "value.",
       f"{R1830}: Stock Round, starting a corporation",
       "Bob buy NYC ipo   ->  NYC has no par value yet: start it with 'par NYC PRICE'"),
    _r("stock.buy_after_private", "brown-zone shares bought after a private in the same turn",
       "A private bought from another player is a certificate, the turn's one purchase; the "
       "brown zone's several shares are one purchase of one corporation's shares from the pool, "
       "not a second purchase after it. 18xx.games lets a player buy brown pool shares after a "
       "private (its check of several shares does not count the private): flagged, and taken "
       "as bought, as the record says.",
       f"{R1830}: Stock Round, buying shares and privates; the stock market's brown zone",
       "Alice buy B&O pool (after buying the private SV)  ->  Alice already bought the private "
       "SV this turn, the turn's one purchase; several B&O shares in the brown zone (price $30) "
       "are a purchase of their own, not a second one after a private; 18xx.games allows it; "
       "taken as bought, as the record says"),
    _r("stock.one_buy", "a second purchase in one turn",
       "A player buys at most one certificate per turn (several only where the market's zone "
       "allows it). 1830: in the brown zone a player may buy several shares of the one "
       "corporation in a turn, from the bank pool only (not from the IPO, nor after a share "
       "from it: Avalon Hill's clarification in The General 23/6; the option "
       "multiple_brown_from_ipo lifts this), with sales before, between or after them "
       "(sell-buy-sell); never shares of two corporations.",
       f"{R1830}: Stock Round, buying shares; the stock market's brown zone",
       "Alice buy PRR ipo (again)  ->  Alice already bought a share (PRR) this turn"),
    _r("stock.par_price", "a par value the market does not have",
       "The par value is one of the market's par spaces (1830: $67, 71, 76, 82, 90, 100). "
       "In a stock round the record says the company was started, so the replay takes the "
       "nearest par value (the higher of two as near) and goes on. 1860 (a par range per "
       "section, a grey-zone range for a restart): a par outside the range is taken as "
       "written when the market has that par, else at the nearest par of the range (of two "
       "as near, the higher one the player can pay).",
       f"{R1830}: Stock Round, starting a corporation",
       "Alice par PRR 95   ->  $95 is not a par value; par values are $100, $90, $82, $76, $71, "
       "$67; taken as a par of $100, the nearest"),
    _r("stock.par_implied", "a par written at one price, the record's later lines at another",
       "A par at another valid par value is legal at its line; the record's later lines then "
       "show a different game (a company operating out of the order the written prices give, a "
       "purchase the written price makes too dear). When the replay ends with errors and the "
       "first is of a kind a price can cause, railcheck replays the record with each par line "
       "before it at each other par value; when exactly one such change makes every error "
       "disappear, the par is flagged with both prices and the game is taken at the implied one "
       "(railcheck/following/diagnose.py, docs/one-mistake.md). Of several such changes, the one whose "
       "game ends with the record's own result is taken; with none, or several, or when one "
       "checkpoint line alone disagrees (it may be the slip), nothing is said and the "
       "original findings stand.",
       OWN,
       "Player 2 par PRR 71 (export #24)  ->  Player 2 pars PRR at $71, but the record's later "
       "lines go on as if at $100 (with $71: #27, Player 1 acted out of turn: it is Player 2's "
       "turn in SR 1 — the first finding the written par gives): taken as $100"),
    _r("stock.par_required", "a president's certificate held without a par value",
       "A player who receives a president's certificate (e.g. with a private) sets the par "
       "value before anything else with that corporation.",
       f"{R1830}: Private Companies, the B&O's president's certificate",
       "Carol buy B&O ipo   ->  Carol must first set the par price of B&O (they hold its president's certificate)"),
    _r("stock.par_twice", "a corporation started twice",
       "A par value is set once.",
       f"{R1830}: Stock Round, starting a corporation",
       "Bob par PRR 90   ->  PRR already has a par value of $100"),
    _r("stock.pool_limit", "a sale that puts more than 50% in the bank pool",
       "At most 50% of a corporation may be in the bank pool.",
       f"{R1830}: Stock Round, selling shares",
       "Alice sell 3 PRR   ->  the bank pool holds 30% of PRR; selling 30% would put 60% there, over the 50% limit"),
    _r("stock.president_cert", "a president sells when nobody can take the presidency",
       "The president's certificate is never sold to the pool: it changes hands only to a player "
       "who holds at least as much; if nobody does, the president may not sell that far.",
       f"{R1830}: Stock Round, selling shares",
       "Alice sell 3 PRR   ->  Alice is president of PRR with 40%; selling 30% would leave 10% and no other player ..."),  # noqa: E501
    _r("stock.rebuy", "a share bought after selling that company in the same round",
       "A player who sold shares of a corporation may not buy it again in the same stock round.",
       f"{R1830}: Stock Round, selling shares",
       "Alice buy PRR pool   ->  Alice sold PRR this round and may not buy it again in SR 3"),
    _r("stock.sell_amount", "a sale of nothing",
       "A sale names at least one share.",
       OWN, "Alice sell 0 PRR   ->  nothing to sell"),
    _r("stock.sell_before_operating", "shares sold of a company that has not operated",
       "1857: shares of a corporation that has not operated yet may not be sold.",
       f"{R1857}: selling",
       "Alice sell 1 PRR   ->  PRR has not operated yet; its shares cannot be sold"),
    _r("stock.sell_buy_order", "a sale after a purchase in the same turn",
       "Where a title's turn is sales, then one purchase (ruleset stock.sell_buy_order: "
       "sell_buy; 1860 also for privates sold to the bank, 18Ireland), nothing is sold after "
       "buying in the same turn. 1889 lets a player sell then buy, or buy then sell, but not "
       "sell again after selling and then buying (sell_buy_or_buy_sell). 1830's turn (and "
       "1857's, 1890's) is sell-buy-sell: sales may come before and after the purchase, so it "
       "never gives this finding; what may still be bought after a sale is stock.one_buy's.",
       f"{R1860}: S2.1; {RIRE}: S2.1; {R1889}: Stock Round",
       "Alice sell 1 PRR (after buying)  ->  shares may not be sold after buying in the same turn"),
    _r("stock.sell_first_round", "a sale in the first stock round",
       "No shares may be sold in the first stock round.",
       f"{R1830}: Stock Round, selling shares",
       "Alice sell 1 PRR   ->  no shares may be sold in the first stock round"),
    _r("stock.sell_not_owned", "a sale of more than the player holds",
       "A player sells only shares they hold. In an export, when the record's later purchases "
       "from the bank name certificates the seller still holds, the sale is taken as the sale "
       "of those (the finding names them; docs/one-mistake.md). An export's sale naming a "
       "certificate number the company has not, or (18Ireland) one the seller does not hold, is "
       "flagged and taken as the sale of as much of his own (18xx.games refuses it).",
       f"{R1830}: Stock Round, selling shares",
       "Bob sell 3 PRR   ->  Bob holds 20% of PRR and cannot sell 30%"),
    _r("stock.purchase_implied", "a player's share purchase missing, the record's later lines "
       "going on from it",
       "A deleted share purchase shows only where the share is needed: its buyer later sells a "
       "certificate he does not hold, or the company it would have floated operates unfloated; "
       "the turn's closing pass reads as a pass alone. When the replay's first error is of "
       "such a kind and no other hint explains it, railcheck replays the record with a "
       "private's exchange for a share of that company before the sale (before a float: the "
       "latest line of a player), "
       "then with a purchase of one of its shares (the certificate the sale names) before each "
       "of the 6 latest passes of the players who may have bought it, latest first; the first "
       "that explains the record from there on (a purchase at a later pass may explain it as "
       "well: the latest, never before the line left out) is flagged and the game taken so "
       "(railcheck/following/diagnose.py, docs/one-mistake.md); else the findings stand. A "
       "purchase left out may also leave the round's last passes alone, ending it where the "
       "record goes on with it (``round.continues``): a purchase of a company the record's "
       "next lines buy, sell or run (those the later errors name first) before each of the 4 "
       "passes in a row before that line, the players the later errors name first, is tried "
       "the same way (as is a sale: ``stock.sale_implied``).",
       f"{R1830}: Stock Round, buying shares",
       "(export) #94 pass  ->  Player 3 passes with no purchase written before, but the "
       "record's later lines go on as if he bought a share of B&O from the IPO (...): taken as "
       "bought before this pass (the latest that explains it)"),
    _r("stock.par_missing", "a par missing, the record's later purchases of the company going "
       "on from it",
       "A deleted par shows where a share of the company is bought: nobody started it "
       "(``stock.not_parred``). When that is the replay's first error and later errors follow, "
       "railcheck replays the record with a par of that company at each par value before each "
       "of the 8 latest players' passes before the purchase (the buyer's first, the latest "
       "first: an export writes a par and the pass that closes the turn); the one that explains "
       "the record from there on (of places as good, the latest; of values, the one the "
       "record's result gives) is flagged at the pass and the game taken so "
       "(railcheck/following/diagnose.py, docs/one-mistake.md); else the findings stand.",
       f"{R1830}: Stock Round, starting a corporation",
       "(export) #378 pass  ->  Player 1 passes with no par written before, but the record's "
       "later lines go on as if he parred KU at ¥100 (...): taken as parred before this pass"),
    _r("stock.sale_implied", "a player's sale missing, the record's later lines going on from "
       "it",
       "A deleted sale in a record whose stock-round turns close with the player's pass leaves "
       "the pass alone; when the passes in a row then end the round where the record goes on "
       "with it (``round.continues``) and later errors follow, railcheck replays the record "
       "with a sale of one or two shares of each company the passing player holds (and the "
       "purchases of ``stock.purchase_implied``) before each of the 4 passes in a row before "
       "that line (a player the next error finds short of cash first, and then only sales); "
       "the one that explains the record from there on (of places as good, the latest) is "
       "flagged at the pass and the game taken so (railcheck/following/diagnose.py, "
       "docs/one-mistake.md); else the findings stand. A sale left out before the seller's "
       "purchase in the same turn shows at that purchase, which he cannot pay for or hold "
       "(``stock.cash``, ``stock.cert_limit``): with later errors, a sale of one or two shares "
       "of each company he holds is put just before it, and the one that explains the record "
       "is flagged at the purchase.",
       f"{R1830}: Stock Round, selling shares",
       "(export) #352 pass  ->  Player 1 passes with no sale written before, but the record's "
       "later lines go on as if he sold 2 shares of DER (...): taken as sold before this pass"),
    _r("stock.sell_not_parred", "a sale of a company without a share price",
       "Shares have a price only once the corporation has a par value.",
       f"{R1830}: Stock Round, selling shares",
       "Bob sell 1 NYC   ->  NYC has no share price yet; its shares cannot be sold"),
    _r("stock.sell_split", "a sale that the player's certificates cannot make up",
       "Certificates are sold whole (a 20% certificate is not sold as 10%).",
       f"{R1830}: Stock Round, selling shares",
       "Bob sell 10% PRR   ->  10% of PRR cannot be made of Bob's certificates"),
    # --- tiles
    _r("tile.blocked", "track laid on a hex a private blocks",
       "A private's hex is blocked for track while a player owns the private.",
       f"{R1830}: Private Companies",
       "PRR lay 57 G15 0   ->  G15 is blocked by the private DH while a player owns it"),
    _r("tile.color", "a tile of a colour the phase does not allow",
       "Yellow tiles from phase 2, green from 3, brown from 5 (1830).",
       f"{R1830}: Operating Round, laying track; phases",
       "PRR lay 14 H12 0   ->  tile 14 is green; only yellow tiles may be laid in this phase"),
    _r("tile.connection", "track not connected to the company's network",
       "A new tile must extend track that the company can reach from one of its stations. "
       "When the written rotation does not fit (here, or as an upgrade keeping the old track, "
       "or at the map's edge) but another rotation of the same tile does, the record says the "
       "tile was laid: it is taken in the rotation that fits, and later findings on the hex "
       "point back to it. When no rotation fits the written hex (this rule, tile.upgrade, "
       "tile.edge, tile.hex, tile.blocked) and the record's later lines (a run through a hex, an "
       "upgrade from the tile, a station; as far as the company's next two runs) need the same "
       "tile on exactly one hex where it can be laid now, it is taken as laid there and the "
       "finding names that hex (a hex written wrong; docs/one-mistake.md).",
       f"{R1830}: Operating Round, laying track",
       "PRR lay 57 E5 0   ->  tile 57 rotation 0 on E5 is not connected to PRR's network (...)"),
    _r("tile.edge", "a tile that runs track off the map or into a blocked side",
       "Track may not run off the map, through an impassable border, or into a neighbour's "
       "side that cannot take track. On a map with gauges (18Ireland), track may not meet the "
       "neighbour's track of the other gauge (narrow into broad, broad into narrow).",
       f"{R1830}: Operating Round, laying track",
       "PRR lay 9 A19 0   ->  tile 9 rotation 0 on A19 runs track off the map at edge 1"),
    _r("tile.hex", "a tile laid on a hex that is not on the map",
       "The hex named by a tile lay is not on the title's map.",
       OWN, "PRR lay 57 Z9 0   ->  there is no hex Z9 on the map"),
    _r("tile.rotation", "a rotation that is not 0-5 or does not fit",
       "A rotation is 0 to 5; the tile so turned must keep the existing track, stay on the map "
       "and connect. Some tiles are laid only at rotation 0 (board.yaml fixed_rotation_tiles: "
       "1860's Ryde, Merstone and Newport tiles, docs/1860.md O1g-O1i).",
       f"{R1830}: Operating Round, laying track; {OWN}: docs/board.md",
       "PRR lay 57 H12 7   ->  rotation 7 of tile 57 is not 0-5"),
    _r("tile.implied", "a track tile written as another of its kind, the record's later "
       "upgrade keeping the other's track",
       "Another yellow track tile (a curve for a straight) is legal at its line; the record's "
       "later upgrade of the hex then does not keep the written tile's track. When the replay "
       "ends with errors and the first is such an upgrade, railcheck replays the record with the "
       "earlier lay on that hex as each other tile of its colour, cities, towns and label, in "
       "each rotation whose track the upgrade keeps (at most 8); when exactly one such change "
       "makes every error disappear, the lay is flagged with both tiles and the game is taken at "
       "the implied one (railcheck/following/diagnose.py, docs/one-mistake.md); else the "
       "original findings stand.",
       OWN,
       "NYC lay 8 F18 3 (export #109)  ->  NYC lays tile 8 on F18 turned 3, but the record's "
       "later lines go on as if tile 9 turned 0 (as written: #118, tile 20 rotation 2 on F18 "
       "does not keep the existing track ... — the first finding the written tile gives): "
       "taken so"),
    _r("tile.lay_implied", "a lay missing, the record's later upgrade, run, lay or station "
       "needing its track",
       "A lay left out of the record shows only where its track is needed: a later upgrade that "
       "skips a colour on the hex, a run over the hex that its track does not join (or whose "
       "stops are worth less than claimed, an upgrade missing), a lay joined to none of its "
       "company's track, a station in a city its company does not reach. When the replay ends "
       "with errors and the first is such a line (a run's revenue, a lay or a station with no "
       "error after their line left to their own finding), railcheck replays the record with a "
       "lay of each tile that would serve (of the hex's next colour, keeping its track: kept by "
       "the upgrade, with the run's edges and passes through the hex, its stops worth the "
       "difference, or on a hex next to the lay or station after which that line is legal; at "
       "most 12 in their rotations) put at the start of each of the 8 most recent operating "
       "turns before it that laid no tile (a company's lines in a row in one round; and up to 4 "
       "earlier turns that do not begin with a pass: an export's turn that lays nothing passes "
       "its lay); when exactly one such change explains the record from there on (of turns as "
       "good, one that does not pass its lay, then the nearest; of tiles as good, the one whose "
       "copy the export's next lay of it shows taken), that turn's first line is flagged and "
       "the game taken so (railcheck/following/diagnose.py, docs/one-mistake.md); else the "
       "findings stand.",
       OWN,
       "(NYC's lay of 9 on F18 left out; export #378)  ->  NYC's turn lays no tile, but the "
       "record's later lines go on as if it laid tile 9 on F18 turned 0 (as written: #398, tile "
       "24 is green but F18 (white map hex) takes a yellow tile ...): taken so (a line missing)"),
    _r("tile.rotation_implied", "a tile written in one rotation, the record's later lines at another",
       "A tile turned to another rotation that fits is legal at its line; the record's later lines "
       "then use track that is not there (a run through the hex, a later lay that the tile's track "
       "should reach, an upgrade that keeps track the tile does not have). When the replay ends "
       "with errors and the first is of such a kind, railcheck replays the record with the most "
       "recent lay on each hex that line touches (a lay's or station's hex and the hexes up to two "
       "steps away, the hex alone for an upgrade; a run's hexes) turned to each other rotation "
       "with other track; when exactly one such change makes every error disappear, the lay is "
       "flagged with both rotations and the game is taken at the implied one "
       "(railcheck/following/diagnose.py, docs/one-mistake.md). Of several such changes, the one whose "
       "game ends with the record's own result is taken; with none, or several, nothing is said "
       "and the original findings stand.",
       OWN,
       "NYC lay 7 F12 1 (export #477)  ->  NYC lays tile 7 on F12 turned 1, but the record's later "
       "lines go on as if turned 2 (turned 1: #583, tile 26 rotation 3 on F12 leaves edge 1 of "
       "the existing track unconnected; ... — the first finding the written rotation gives): "
       "taken as turned 2"),
    _r("tile.rotation_guessed", "a tile lay without rotation that fits several ways",
       "The record gives no rotation and the tile fits in several; railcheck takes the first "
       "and says so. A later error naming the hex points back to this line.",
       f"{OWN}: docs/board.md",
       "PRR lay 59 H18   ->  the rotation of tile 59 on H18 is not written and it fits in "
       "rotations 1, 5; rotation 1 is taken (write it, e.g. '59 H18 r1')", "info"),
    _r("tile.special", "a private's tile lay outside its power",
       "A private's tile-laying power applies to its hexes and tiles only; a tile that only "
       "a power lays (1889's port tile 437, the Mitsubishi Ferry's) is never laid by a "
       "company's own lay.",
       f"{R1830}: Private Companies, special powers; {R1889}: the privates",
       "PRR lay 57 E5 0 with CS   ->  CS's power lays tiles only on B20, not on E5"),
    _r("tile.supply", "a tile of which no copy is left",
       "The tile mix is limited: a tile can be laid only while a copy is in the supply.  An "
       "18xx.games export names the copy it lays (57-0 to 57-3 of four 57s): a copy past the "
       "count is no tile of the game (flagged; the tile is laid as the record says).",
       f"{R1830}: components (tile mix)",
       "PRR lay 57 H12 0   ->  no copy of tile 57 is left in the supply (all 7 are on the map)"),
    _r("tile.unknown", "a tile the title does not have",
       "The tile number is not in the title's tile mix.",
       f"{R1830}: components (tile mix)",
       "PRR lay 999 H12 0   ->  there is no tile 999 in this game"),
    _r("tile.upgrade", "an upgrade that does not fit the tile it replaces",
       "An upgrade is the next colour, keeps the label, cities and towns, and keeps all existing "
       "track. A tile the record's later lines have on another hex is taken as laid there "
       "(see tile.connection).",
       f"{R1830}: Operating Round, upgrading track",
       "PRR lay 15 H12 0   ->  tile 15 has label none but H12 needs label OO"),
    # --- stations
    _r("token.ambiguous", "a station on a hex with several free cities, without saying which",
       "On a hex with two cities that both have a free slot the record must say which city.",
       f"{OWN}: docs/notation.md, stations",
       "NYC place E5   ->  E5 has 2 cities with a free slot (0, 1): say which"),
    _r("token.cash", "a station the company cannot pay",
       "Stations after the home station cost money (1830: $40, then $100). A station the "
       "record places without the money is flagged and taken as placed and paid (the treasury "
       "goes below zero), so the map stays the record's.",
       f"{R1830}: Operating Round, placing station markers",
       "PRR place E5   ->  PRR has $30; its next station costs $40; taken as placed and paid, "
       "as the record says"),
    _r("token.city", "a station where there is no such city",
       "A station is placed in a city of the hex named.",
       f"{R1830}: Operating Round, placing station markers",
       "PRR place G11   ->  G11 has no city for a station"),
    _r("token.city_implied", "a station written in one city of its hex, the record's later "
       "lines in another",
       "A station in either city of a hex of two (an OO) is legal at its line; the record's later "
       "lines then use track or a station that is not there (a lay the company's network should "
       "reach, a run from the other city). When the replay ends with errors and the first is of "
       "such a kind, railcheck replays the record with each of the 4 most recent stations on a "
       "hex of several cities (of the companies that error names) put in each other city; when "
       "exactly one such change makes every error disappear, the station is flagged with both "
       "cities and the game is taken at the implied one (railcheck/following/diagnose.py, "
       "docs/one-mistake.md); else the original findings stand.",
       OWN,
       "ERIE token E11 city 0 (export #278)  ->  ERIE places a station in E11 city 0, but the "
       "record's later lines go on as if in city 1 (as written: #515, ... — the first finding "
       "the written city gives): taken as city 1"),
    _r("token.duplicate", "a second station of a company on one hex",
       "A company may have only one station on a hex.",
       f"{R1830}: Operating Round, placing station markers",
       "PRR place E5   ->  PRR already has a station on E5"),
    _r("token.full", "a station in a full city",
       "A city holds as many stations as it has slots.",
       f"{R1830}: Operating Round, placing station markers",
       "PRR place E5   ->  E5 city 0 is full (NYC, B&O)"),
    _r("token.hex", "a station on a hex that is not on the map",
       "The hex named by a station is not on the title's map.",
       OWN, "PRR place Z9   ->  there is no hex Z9 on the map"),
    _r("token.home", "a home station that cannot be placed",
       "A company's home station goes in its home city; it is full or the company is unknown.",
       f"{R1830}: Operating Round, home stations",
       "(ERIE starts)  ->  ERIE's home city on E11 is full"),
    _r("token.implied", "a station written in one city, the record's later lines "
       "going on from a city of another hex",
       "A major's home station, placed where its owner chooses as it is parred, is legal in "
       "any free city, and a later station in any city its company reaches; the record's "
       "later lines (the company's lays, its runs) then show it elsewhere. When the replay's "
       "first error is one a station in the wrong place causes, at a line of a company whose "
       "home station or a later station is written before it, railcheck replays the record "
       "with that station (the home station, and the company's latest station before the "
       "error) in each city of the hexes the company's later lines name (at most 16 each); "
       "when exactly one explains the record from there on (of the two lines, the later when "
       "both do), the station line is flagged with both cities and the game taken so "
       "(railcheck/following/diagnose.py, docs/one-mistake.md); else the findings stand.",
       OWN,
       "(export) #677 place_token  ->  DSER places its home station in D16 city 0, but the "
       "record's later lines go on as if it stood in J4 city 0 (as written: #694, ...): "
       "taken so"),
    _r("token.none_left", "a station when the company has none left",
       "Each company has a fixed number of station markers.",
       f"{R1830}: components (station markers)",
       "PRR place E5   ->  PRR has placed all 4 of its station markers"),
    _r("token.one_per_turn", "a second station in one turn",
       "A company places at most one station per operating turn.",
       f"{R1830}: Operating Round, placing station markers",
       "PRR place F2   ->  PRR already placed 1 station(s) this turn"),
    _r("token.reach", "a station the company's track does not reach",
       "A station is placed in a city that the company's track reaches from one of its stations.",
       f"{R1830}: Operating Round, placing station markers",
       "PRR place E5   ->  E5 city 0 is not reachable from PRR's stations"),
    _r("token.reserved", "a station in a slot reserved for another company's home",
       "A home city keeps a slot for its company until it starts.",
       f"{R1830}: set-up (home stations)",
       "PRR place E5   ->  the free slot of E5 city 0 is reserved for NYC's home station"),
    # --- track
    _r("track.cost", "track the company cannot pay",
       "Laying on terrain (rivers, mountains) costs money from the treasury. A lay the record "
       "makes without the money is flagged and taken as laid and paid (the treasury goes below "
       "zero), so the map stays the record's; a free lay needs no money. In 1860 an insolvent "
       "corporation lays no track that costs money, whatever its cash (refused).",
       f"{R1830}: Operating Round, laying track (terrain costs)",
       "PRR lay 8 F16 0   ->  PRR has $40; laying on F16 costs $120; taken as laid and paid, "
       "as the record says"),
    _r("track.one_lay", "a second tile lay in one turn",
       "A company lays one tile per operating turn (plus what privates' powers allow).",
       f"{R1830}: Operating Round, laying track",
       "PRR lay 9 H10 0 (second)  ->  PRR already laid 1 tile(s) this turn; the limit is 1"),
    # --- trains
    _r("trains.cash", "a train the company cannot pay",
       "The treasury pays for trains; the president adds money only when the company has no "
       "train and must buy one. A company with trains that buys one it cannot pay is flagged "
       "and the purchase taken as written (its treasury goes below zero).",
       f"{R1830}: Operating Round, buying trains",
       "PRR buy train 4   ->  PRR has $200, a 4-train costs $300 (the president helps only ...)"),
    _r("trains.discard", "a train discarded without need",
       "Trains are discarded only when a company is over the train limit.",
       f"{R1830}: Operating Round, train limit",
       "PRR discard 2   ->  PRR owns 2 trains, within the limit of 4; trains may not be discarded at will"),
    _r("trains.discard_required", "a company over the train limit did not discard",
       "When the phase lowers the train limit, a company over it discards down to the limit "
       "(to the bank pool) before play goes on.",
       f"{R1830}: Operating Round, train limit",
       "(phase 4 starts)  ->  B&O holds 4 trains (2, 2, 3, 3), over the limit of 3 in phase 4; it must discard 1 ..."),
    _r("trains.exchange", "a train exchange that is not allowed",
       "Only the trains the title names (1830: a 4, 5 or 6 for a diesel) may be traded in.",
       f"{R1830}: Operating Round, buying trains (diesels)",
       "PRR buy train D exchange 3   ->  a 3-train cannot be traded in for a D; only 4, 5, 6"),
    _r("trains.limit", "a purchase over the train limit",
       "A company may own at most the phase's train limit (1830: 4 in phase 2, 3 in phase 4, 2 "
       "from phase 5).",
       f"{R1830}: Operating Round, train limit",
       "B&O buy train 2   ->  B&O owns 4 trains; one more makes 5, over the limit of 4 in phase 2"),
    _r("trains.must_own", "a company without a train ended its turn without buying one",
       "A company with a route that owns no train must buy one at the end of its turn (with its "
       "president's money if need be).",
       f"{R1830}: Operating Round, forced train purchase",
       "(B&O passes with no train)  ->  B&O ended its turn without a train; it must buy one (cheapest: ...)"),
    _r("trains.not_available", "a train that is not for sale",
       "The depot sells the trains of the current type (the next type once they are gone); the "
       "bank pool sells what was discarded.",
       f"{R1830}: Operating Round, buying trains",
       "PRR buy train 4   ->  the depot does not sell a 4-train now (available: 3)"),
    _r("trains.not_owned", "a train bought from a company that does not own it",
       "Trains are bought from another company only if it owns one of that type.",
       f"{R1830}: Operating Round, buying trains",
       "PRR buy train 3 from B&O 200   ->  B&O owns no 3-train"),
    _r("trains.price", "a train at another price than the rules give",
       "Trains from the depot or pool cost their list price; between companies at least $1. "
       "A depot or pool train at another price is taken as paid; when errors follow that the "
       "list price explains (every later line fits with it), the game goes on from the list "
       "price instead, the finding saying so (railcheck/following/diagnose.py).",
       f"{R1830}: Operating Round, buying trains",
       "PRR buy train 3 250   ->  a 3-train from the depot costs $180, not $250"),
    _r("trains.unknown", "a train the export does not know",
       "The export names a train id that does not exist in this game.",
       SITE, "(export) buy_train train=9-0   ->  no train 9-0"),
    # --- turns
    _r("turn.actor", "an action by someone who does not act in this round",
       "Players act in stock rounds and auctions; corporations in operating rounds.",
       f"{R1830}: sequence of play",
       "PRR buy NYC ipo   ->  PRR is a corporation; only players act in a stock round (SR 2)"),
    _r("turn.order", "an action out of turn",
       "Players act in turn order (from the priority deal in a stock round); companies operate "
       "in share-price order. After the finding the replay follows the record: a line written "
       "in another player's turn keeps the turn order when the record goes on from that "
       "player's successor; a company operating before others that the record has operate "
       "later in the round is flagged once per pair in a round (a pair out of order again in a "
       "later round is a breach of its own, flagged again and marked as following from the "
       "first where it does), and their turns wait for them.",
       f"{R1830}: Stock Round, Operating Round (order)",
       "\"Player 4\" buy NYC ipo   ->  Player 4 acted out of turn: it is Player 3's turn in SR 1"),
    # --- 18Ireland
    _r("auction.bid_multiple", "a bid that is not a multiple of the increment",
       "18Ireland: bids on privates and minors are multiples of 5.",
       f"{RIRE}: A3",
       "Alice bid DR 37   ->  bids are multiples of £5; £37 is not"),
    _r("merger.action", "an action that has no place in a merger round",
       "A merger round takes proposals, votes and passes (and discards after a merger).",
       f"{RIRE}: M2",
       "Alice buy DKR   ->  'buy' is not a merger round action"),
    _r("merger.proposal", "a merger that may not be proposed",
       "A proposal names two or three operating minors whose stations are on different hexes, "
       "the first one held by the proposer; an unstarted major must be left.",
       f"{RIRE}: M2-M6",
       "Alice propose LER   ->  Alice holds no share of LER; a proposal starts with a minor "
       "the proposer holds a share of"),
    _r("merger.connection", "a merger of minors not joined by broad gauge track",
       "Each minor added to a proposal must be joined by broad gauge track to one already in "
       "it; stations of other companies on the way do not block (narrow track does not join).",
       f"{RIRE}: M5",
       "Bob propose DKR, propose DER   ->  DER (I9) is not joined by broad gauge track to DKR "
       "(I11); merging minors must be connected by broad track, other companies' stations not "
       "blocking (M5)"),
    _r("merger.shares", "a merger with too many shares out, or leaving a holder over 70%",
       "At most ten shares of the merging minors with players and the pool; afterwards no "
       "player above 70% and the pool at most 50% of the major.",
       f"{RIRE}: M7-M8",
       "Alice propose DER   ->  Alice would hold 8 shares (over 70%) of the major"),
    _r("merger.vote", "a vote by a player who may not vote",
       "Only holders of the merging minors vote, each once, for or against; nothing else "
       "happens while the vote is under way.",
       f"{RIRE}: M9",
       "Carol vote for   ->  Carol holds no share of DER, UR and has no vote"),
    _r("merger.implied", "a merger vote or proposal written one way, the record's later lines "
       "another",
       "A vote for a merger written as against (or the other way), or a proposal naming "
       "another minor, is legal at its line; the record's later lines then show another "
       "merger round (a major named after a vote that did not carry, a proposal the round "
       "refuses). When the replay's first error is a merger round's, railcheck replays the "
       "record with each of its 4 most recent votes the other way and each of its 2 most "
       "recent proposals naming each other minor; when exactly one such change explains the "
       "record from there on, that line is flagged with both readings and the game taken so "
       "(railcheck/following/diagnose.py, docs/one-mistake.md); else the findings stand.",
       OWN,
       "(export) #339 vote against  ->  Player 2 votes against, but the record's later lines "
       "go on as if Player 2 voted for (as written: #341, the vote on DER, UR is under way "
       "...): taken as for"),
    _r("merger.major", "a merger into a company that is not an unstarted major",
       "A carried merger forms a major that has not been started; the proposer names it.",
       f"{RIRE}: M4, M14",
       "Alice propose DKR   ->  DKR is not a major that has not been started"),
    _r("merger.repeated", "a rejected merger proposed again in the same round",
       "A proposal the vote rejected may not be made again in that merger round.",
       f"{RIRE}: M3",
       "Bob propose DER, propose UR   ->  the merger of DER, UR was rejected earlier in this "
       "round and may not be proposed again; it is cleared with no vote", "warning"),
    _r("or.issue", "a share issued or redeemed that may not be",
       "A company may sell one of its treasury shares to the pool, or buy one back from the "
       "pool at the market price, once a turn before laying track.",
       f"{RIRE}: O1",
       "DER redeem   ->  no DER share is in the bank pool"),
    _r("or.issue_implied", "a company's issue of a share missing, the record's later lines "
       "going on from it",
       "A deleted issue line shows only where the cash or the lower share price is needed (a "
       "train the company cannot pay for, companies operating out of the price order). When "
       "the replay's first error is of such a kind and no other hint explains it, railcheck "
       "replays the record with each of the 12 most recent operating turns of companies that "
       "may issue begun with an issue of one treasury share; when exactly one such change "
       "explains the record from there on, the latest line of that turn the issue explains "
       "it before is flagged and the game taken so (railcheck/following/diagnose.py, "
       "docs/one-mistake.md); else the findings stand.",
       f"{RIRE}: O1",
       "(export) #101 pass  ->  DDR issues no share in its turn before this line, but the "
       "record's later lines go on as if it issued one (as written: #104, DDR has £60, a "
       "2H-train costs £98 ...): taken as issued before this line"),
    _r("or.step_unwritten", "an export with no line for a step the site asked the company to "
       "decide",
       "18xx.games asks a company for each step of its turn that has something to do and "
       "that the site does not pass over by itself (18Ireland's issue or redemption, when "
       "the company could issue a treasury share or redeem one from the pool), and records "
       "its answer: the step's action or a pass. An export whose company goes on to a later "
       "step with neither misses a line there: the deleted issue or redemption itself, or "
       "its pass (a dividend of the wrong kind earlier can leave the company able to redeem "
       "where the record has no pass). A notation record may leave such a pass out; only "
       "an export is checked. The line is taken as written, the step left undone.",
       SITE,
       "(export) #735 lay_tile  ->  MGWR could issue one of its treasury's (40% there) at "
       "£96, and 18xx.games asks for that or a pass before anything else of its turn; the "
       "record has neither before this 'lay': a line is missing (taken as not done)"),
    _r("stock.minor_auction", "a minor auction out of place",
       "Only the minor on top of the stack is auctioned, as a player's whole action for the "
       "turn; a minor is started by its auction, never parred.",
       f"{RIRE}: SB3",
       "Alice bid UR 100   ->  only the minor on top of the stack may be auctioned (DER), not UR"),
    _r("stock.minor_bid", "a bid on a minor below the minimum or not a multiple of 5",
       "A minor's auction opens at 100 or more; each bid raises by multiples of 5, within the "
       "bidder's cash.",
       f"{RIRE}: SB3",
       "Alice bid DER 95   ->  a bid must be at least £100, not £95"),
    _r("stock.minor_bid_implied", "a minor won at one price, the record's later lines going "
       "on from another",
       "A minor's winning bid is its treasury and twice its par, so a bid written at another "
       "legal price shows only later: the minor or its bidder short of cash, the companies "
       "operating in another order. When the replay's first error is of such a kind and "
       "names the minor or its bidder, railcheck replays the record with the winning bid of "
       "each of the two latest such auctions at the prices the rules take (halving them by "
       "which side a candidate's errors are on, the bidder's net worth against the record's "
       "result); the first that explains the record from there on is flagged and the game "
       "taken so (railcheck/following/diagnose.py, docs/one-mistake.md); else the findings "
       "stand.",
       f"{RIRE}: SB3",
       "(export) #9 bid DER 115  ->  Player 2 wins DER's auction at £115, but the record's "
       "later lines go on as if at £120 (as written: #31, DER has £65, a 2H-train costs £80 "
       "...): taken as £120"),
    _r("stock.major_phase", "a major started before phase 6",
       "Players may start majors in stock rounds only from phase 6.",
       f"{RIRE}: phases, SB4",
       "Alice par GSWR 100   ->  majors may be started from phase 6; this is phase 4"),
    _r("tile.no_new_track", "an upgrade that adds no usable track and changes no value",
       "Track is semi-restrictive (``operating.track_restriction``; 18Ireland, 1889): a tile "
       "laid on a hex that had track must give the company "
       "track it can use (a path the old tile did not have, in its broad network for a broad "
       "lay, in its narrow network for a lay adding narrow track) or change the value of a stop "
       "on a path it can use. Flagged after the lay; the tile stays, as the record says.",
       f"{RIRE}: O2a; {R1889}: Operating Round, laying track",
       "KJR lay 713 G11 0   ->  KJR's upgrade of G11 (tile 9 to 713) gives it no new narrow gauge "
       "track it can use and changes no value of a stop on its track (...)"),
    _r("stock.home_station", "a major started without its home station",
       "A major started in a stock round places its first station at once on a free city.",
       f"{RIRE}: SB4",
       "Alice par GSWR 100, Bob pass   ->  GSWR was started without placing its home station"),
]

CATALOGUE: dict[str, Rule] = {r.id: r for r in RULES}


def lookup(rule_id: str) -> Optional[Rule]:
    return CATALOGUE.get(rule_id)


def explain(rule: Rule) -> str:
    """The text of ``railcheck rules explain``."""
    import textwrap
    area = rule.id.split(".")[0]
    lines = [f"{rule.id}: {rule.summary}", "",
             textwrap.fill(rule.meaning, 78), "",
             f"severity: {rule.severity}",
             f"area:     {area} ({AREAS.get(area, area)})",
             f"source:   {rule.source}",
             "",
             "example:",
             f"    {rule.example}"]
    return "\n".join(lines) + "\n"


def markdown() -> str:
    """docs/rules.md, generated from the catalogue."""
    out = ["# Rule ids",
           "",
           "Every finding names a rule (`path:line:col: error [stock.cert_limit] ...`).",
           "`railcheck rules explain RULE` prints one entry of this page,",
           "`railcheck rules list --ids` lists the ids. This page is generated from",
           "`railcheck/rule_catalogue.py` (`python -m railcheck.rule_catalogue > docs/rules.md`);",
           "a test keeps it, the catalogue and the code in step.",
           "",
           "Sources: *" + R1830 + "* for 1830 and the titles that extend it, the",
           "*" + R1857 + "* for what 1857 changes, *" + SITE + "* where the site's",
           "records decide, and *" + OWN + "* for checks of the records themselves.",
           ""]
    by_area: dict[str, list[Rule]] = {}
    for r in RULES:
        by_area.setdefault(r.id.split(".")[0], []).append(r)
    for area in sorted(by_area):
        out.append(f"## {area}: {AREAS.get(area, area)}")
        out.append("")
        for r in sorted(by_area[area], key=lambda r: r.id):
            out.append(f"### `{r.id}`")
            out.append("")
            out.append(f"**{r.summary}** ({r.severity}). {r.meaning}")
            out.append("")
            out.append(f"Source: {r.source}.")
            out.append("")
            out.append("```")
            out.append(r.example)
            out.append("```")
            out.append("")
    return "\n".join(out)


if __name__ == "__main__":  # pragma: no cover
    print(markdown(), end="")
