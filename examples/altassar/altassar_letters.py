"""The alt-example's players and their letters to the referee: the orders as they wrote them.

The letter and player shapes are the Atlantis example's (``examples/atlantis/example_mails.py``,
imported, not copied): :data:`AltLetter` (``example_play.letter_class``) only changes the game and
the referee key named in the order header and the seats it looks its player up in. Everything a
player typed is data here: the words around the orders, the order lines with their comments and
their mistakes, the nonce, and the time they signed and sent. ``make_example.py`` signs the orders,
writes the mail in the form of the player's mail program (``examples/atlantis/client_forms.py``)
and plays it through pbem. The orders of each window were written after reading the report that
opened it (README.md tells the story).
"""

from __future__ import annotations

import sys
from pathlib import Path

_EXAMPLES = Path(__file__).resolve().parent.parent
for _path in (_EXAMPLES, _EXAMPLES / "atlantis"):
    if str(_path) not in sys.path:
        sys.path.append(str(_path))

import example_play  # noqa: E402  (examples/example_play.py)
from example_mails import REFEREE, Player  # noqa: E402, F401  (examples/atlantis; REFEREE re-exported)

GAME = "alt-example"
REFEREE_KEY = "SHA256:23d2r0NVks98aF5geePXPHrLZjI2hwA9uw+B18sHwLs"
"""The fingerprint of the game's referee key as the setup report prints it
(reports/public/000-setup.txt), copied into every order header's ``referee:`` line."""

PLAYERS = (
    Player("confederation", "Dana Okafor", "dana@example.org", "mail.example.org",
           "198.51.100.23", "confederation.key", "confederation.pub", "pbem"),
    Player("spikus", "Marek Dvořák", "spike@example.net", "smtp.example.net", "192.0.2.77",
           "spikus_ed25519", "spikus_ed25519.pub", "ssh"),
)
"""The seats in the ruleset's order (``pbem game new altassar ... --player
confederation=... --player spikus=...``)."""

AltLetter = example_play.letter_class(GAME, REFEREE_KEY, PLAYERS)
"""A letter of this game: the Atlantis example's ``Letter`` with this game's header and seats."""

# -- turn 0: the Breakout and the Signal Posts -------------------------------------------------

TURN0 = [
    AltLetter(
        file="01-confederation-thunderbird.eml", window="0.breakout", role="confederation",
        client="thunderbird",
        date="2027-02-02 21:07:14 +0000", issued="2027-02-02T21:03:51Z",
        nonce="b0410004de70e8a9afe849572e807447",
        message_id="<3c7e9a14-5d2b-4f08-b1e6-7a9d0c4e2f51@example.org>",
        subject="alt-example: the Breakout",
        before="""\
Hello referee,

the Breakout for alt-example, signed with pbem sign. A shotgun spread, as the rulebook's \
notes advise (22.0): everybody runs at once, in every direction the map allows.

""",
        orders="""\
# Dana (Confederation), the Breakout: double movement (12.1). The real prisoners
# go to Rain Forest and Hills, where their Evasion Rating counts in full (9.0);
# the dummies run farthest, to draw the Drystals.
move silian-1 from 0307 to 1406
move silian-2 from 0307 to 1404
move terran-1 from 0307 to 1307
move terran-2 from 0308 to 1113
move badte-1 from 0308 to 1012
move badte-2 from 0308 to 0913
move clkgo-1 from 0307 to 0804
move clkgo-2 from 0308 to 0912
move phatakian-1 from 0307 to 0704
move phatakian-2 from 0209 to 0612

# dummies: wide, and some to the same kind of cover, so that they look real
move dummy-1 from 0307 to 1409
move dummy-2 from 0307 to 1210
move dummy-3 from 0307 to 1009
move dummy-4 from 0307 to 1103
move dummy-5 from 0307 to 1506
move dummy-6 from 0308 to 0813
move dummy-7 from 0307 to 0604
move dummy-8 from 0207 to 1705   # the farthest forest of all
""",
        after="""\

Run!
Dana
""",
        expect="accepted, problems: line 31 (Altassar 5.0)",
    ),
    AltLetter(
        file="02-spikus-mutt-sig.eml", window="0.posts", role="spikus", client="mutt",
        date="2027-02-03 09:41:27 +0100", issued="2027-02-03T08:38:02Z",
        nonce="e58f66cd7cb277a72b03d25980c172d6",
        message_id="<20270203084127.GA2291@hrad.example.net>",
        subject="alt-example: Signal Posts",
        before="""\
Dobrý den,

the Spikus Signal Posts. Signed with my SSH key (ssh-keygen -Y sign -n
pbem-orders); the signature of exactly these lines is attached as
orders.txt.sig.

""",
        orders="""\
# Marek (Spikus), Signal Posts (13.1). Seventeen counters ran east; the
# exit is the east edge, so the posts go across their way, where a counter
# that moves on must come within two hexes of one (13.2).
post 1608
post 1705
post 1312
post 1803
""",
        after="""\

-- 
Marek
""",
        expect="accepted",
    ),
]

# -- turn 1 ----------------------------------------------------------------------------------------

TURN1 = [
    AltLetter(
        file="03-spikus-mutt-attach.eml", window="1.spikus-movement", role="spikus",
        client="mutt-attach",
        date="2027-02-03 19:52:40 +0100", issued="2027-02-03T18:47:13Z",
        nonce="ff3cb520b149f47165d67ce8b476201a",
        message_id="<20270203185240.GB2291@hrad.example.net>",
        subject="alt-example turn 1 Spikus movement",
        before="""\
Hello,

the first Spikus Movement Phase: orders.txt and orders.txt.sig attached
(ssh-keygen -Y sign -n pbem-orders orders.txt). I move first and fight
after, in a combat window of its own, when I can see where everything
ended up.
""",
        orders="""\
# Marek (Spikus), turn 1. Out of the prison after them.
# S01 takes a Trip Net to 0606 and throws it south down the 06 column:
# the counter at 0612 is the first thing in its way (14.2).
carry N1 S01
move S01 from 0307 to 0606
launch N1 s 8 end

# two soldiers on the pair in the north-west forest, two on 0612
move S02 from 0307 to 0705
move S03 from 0307 to 0805
move S04 from 0209 to 0611
move S05 from 0308 to 0711

# the Drystals fly east, within range of the counters by the posts
move D1 from 0307 to 1105
move D2 from 0307 to 1205

combat later
""",
        after="""\

-- 
Marek
""",
        expect="accepted",
    ),
    AltLetter(
        file="04-spikus-mutt-sig.eml", window="1.spikus-combat", role="spikus", client="mutt",
        date="2027-02-03 22:18:05 +0100", issued="2027-02-03T21:15:44Z",
        nonce="59466808f7462fa75cad7b70779505b5",
        message_id="<20270203211805.GC2291@hrad.example.net>",
        subject="alt-example turn 1 Spikus combat",
        before="""\
Hi,

the net caught a Phatakian at 0612, so that one is mine. The attacks
for the combat window, signature attached.

""",
        orders="""\
# Spikus combat, turn 1, in this order (7.6).
# First the Drystals' ranged fire at the counter in the forest by the posts
attack 1406 with D1 D2
# the two soldiers in the north-west forest at the counter beside them
attack 0704 with S02 S03
# The netted Phatakian cannot evade (14.6): two soldiers next to it.
attack 0612 with S04 S05
# and S01, who threw the net, fires at the Phatakian too
attack 0612 with S01
""",
        after="""\

-- 
Marek
""",
        expect="accepted, problems: line 17 (Altassar 7.0)",
    ),
    AltLetter(
        file="05-confederation-gmail.eml", window="1.evasion", role="confederation",
        client="gmail",
        date="2027-02-04 07:55:31 +0000", issued="2027-02-04T07:52:09Z",
        nonce="184ee19ea03e85b17ecb198915933dc6",
        message_id="<CAH7fQ2pK9xW4mT1zR8vN3bL6cY0dJ5sA2gE7uQ1oF9hX4kV3iB@mail.gmail.com>",
        subject="alt-example turn 1 evasion",
        before="""\
Good morning,

two of my counters are under attack. My answers for the evasion window:

""",
        orders="""\
# 1406 is a Silian in the forest: Evasion Rating 5, in full there (9.0).
# Flight, trading places with the dummy next door at 1506 (9.2).
evade 1406  flight  1506
# 0704 is slow (a Phatakian, rating 2): better to hide in the forest (9.3).
evade 0704  camouflage
""",
        after="""\

Dana
""",
        expect="accepted",
    ),
    AltLetter(
        file="06-confederation-apple.eml", window="1.confederation-movement",
        role="confederation", client="apple",
        date="2027-02-04 19:31:08 +0000", issued="2027-02-04T19:26:45Z",
        nonce="635d1f64d4e483b40b40ff2dac637ea9",
        message_id="<8F3A61D2-4C7B-4E19-A0D5-2B9C7E14F368@example.org>",
        subject="alt-example turn 1 Confederation",
        before="""\
Hello,

my first Movement Phase is attached (orders.txt, from pbem sign -o orders.txt).
""",
        orders="""\
# Dana (Confederation), turn 1. The Flight worked: silian-1 is at 1506 now,
# and the Spikus think 1506 is just another counter.
move silian-1 to 1907
move terran-1 to 1206
move silian-2 to 1305
move terran-2 to 1513
move badte-1 to 1112
move clkgo-2 to 1012
move clkgo-1 to 0903
# the dummies keep the Spikus busy
move dummy-1 to 1610
move dummy-2 to 1411
move dummy-3 to 1209
move dummy-4 to 1303
move dummy-6 to 0914
move dummy-7 to 0503
move dummy-8 to 0408
""",
        after="""\

Dana
""",
        expect="accepted, problems: line 14 (Altassar 5.0)",
    ),
    AltLetter(
        file="07-confederation-thunderbird-reply.eml", window="1.confederation-movement",
        role="confederation", client="thunderbird-reply",
        date="2027-02-04 19:38:20 +0000", issued="2027-02-04T19:36:41Z",
        nonce="cbfbea7d832a686834ed2a9a88d31ea3",
        message_id="<5a2e8c71-0f4d-4b96-9e3a-d17c6b58f024@example.org>",
        subject="(Re: the report, filled in when the mail is written)",
        before="""\
Sent too soon: the receipt says terran-2 cannot reach 1513, and terran-1 and silian-2 \
end next to the Drystal at 1205 anyway, so they may as well shoot at it. These orders \
replace the ones of ten minutes ago.

""",
        orders="""\
# Dana (Confederation), turn 1, second thoughts: terran-2 only to the rough
# at 1313 (the rough costs 2), badte-2 after it, and the two
# that end beside D2 attack it. Both adjacent: +1 (7.43); a Drystal gets no
# help from the ground (16.2).
move silian-1 to 1907
move terran-1 to 1206
move silian-2 to 1305
move badte-2 to 1113       # into the forest terran-2 leaves
move terran-2 to 1313
move badte-1 to 1112
move clkgo-2 to 1012
move clkgo-1 to 0903
move dummy-1 to 1610
move dummy-2 to 1411
move dummy-3 to 1209
move dummy-4 to 1303
move dummy-5 to 1406       # found out anyway: it stays where it is
move dummy-6 to 0914
move dummy-7 to 0503
move dummy-8 to 0408
attack D2 with terran-1 silian-2
""",
        after="""\

Dana
""",
        expect="accepted, problems: line 16 (Altassar 5.0); line 25 (Altassar 5.0), replaces 06-confederation-apple.eml",
    ),
]

# -- turn 2 ----------------------------------------------------------------------------------------

TURN2 = [
    AltLetter(
        file="08-confederation-gmail-standing.eml", window="2.spikus-movement",
        role="confederation", client="gmail",
        date="2027-02-04 21:02:57 +0000", issued="2027-02-04T21:00:13Z",
        nonce="b7e9f3753f7ddfafed9d10605fabd56b",
        message_id="<CAH7fQ2rT5yB8nL3wK0xM6dP1gZ9cV4hS7aJ2eR5uN8oQ3iF6tW@mail.gmail.com>",
        subject="alt-example: standing evasion order",
        before="""\
Hi,

not my turn, but I would rather not wait up for every evasion window:
a standing order for it.

""",
        orders="""\
# Every face-down counter the Spikus attack tries Flight (9.2) at once, with the
# nearest dummy; no evasion window (the dummies cannot evade anyway, 15.2).
evasion flight
""",
        after="""\

Dana
""",
        expect="accepted",
    ),
    AltLetter(
        file="09-spikus-mutt-sig.eml", window="2.spikus-movement", role="spikus",
        client="mutt",
        date="2027-02-05 20:14:36 +0100", issued="2027-02-05T19:09:50Z",
        nonce="3299c704982dd201b1402d89b6aefc2c",
        message_id="<20270205191436.GD2291@hrad.example.net>",
        subject="alt-example turn 2 Spikus",
        before="""\
Evening,

turn 2 for the Spikus, moves and attacks in one go this time.
Signature attached.

""",
        orders="""\
# Marek (Spikus), turn 2. D2 shrugged off their fire; now it is my turn.
# Reinforcements out of the prison: a third Drystal, a soldier with a Tracker.
move D3 from 0307 to 0907
move S06 from 0308 to 0808
move T1 from 0308 to 0808
# S03 closes in on the stunned Phatakian: every attacker adjacent (7.43)
move S03 to 0804

attack 0704 with S02 S03
attack 1206 with D1 D3
attack 1305 with D2
attack 0612 with S04 S05
""",
        after="""\

-- 
Marek
""",
        expect="accepted",
    ),
    AltLetter(
        file="10-confederation-outlook.eml", window="2.confederation-movement",
        role="confederation", client="outlook",
        date="2027-02-06 12:26:44 +0000", issued="2027-02-06T12:24:18Z",
        nonce="97f85831e69053fc2f0bd2a2c1efa71a",
        message_id="<DB9PR07MB4E21A7C3F90D5B8E6A14@DB9PR07MB4E21.eurprd07.prod.outlook.com>",
        subject="alt-example turn 2 Confederation",
        before="""\
Hello,

from work, so Outlook this time. Three Flights failed, but the Drystals hit
nothing, and silian-1 is one move from the edge.

""",
        orders="""\
# Dana (Confederation), turn 2.
move silian-1 to 2408 off      # 5 to the edge, 1 to leave it (exit cost)
move terran-2 to 1612
move badte-1 to 1414
move terran-1 to 1309
move silian-2 to 1506          # seen anyway: into the forest
move phatakian-1 to 0604       # not stunned any more, away from S02 and S03
move badte-2 to 1013
move clkgo-2 to 1112
move clkgo-1 to 1003
# the dummies: the one at 1406 is known, the others run with the prisoners
move dummy-3 to 1410
move dummy-4 to 1503
move dummy-6 to 1114
move dummy-7 to 0702
move dummy-8 to 0508
""",
        after="""\

Dana
""",
        expect="accepted",
    ),
]

LETTERS: list = TURN0 + TURN1 + TURN2
"""Every letter of the example, in the order they were sent."""
