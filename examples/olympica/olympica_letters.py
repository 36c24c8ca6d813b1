"""The oly-example's players and their letters to the referee: the orders as they wrote them.

The letter and player shapes are the Atlantis example's (``examples/atlantis/example_mails.py``,
imported, not copied): :data:`OlyLetter` (``example_play.letter_class``) only changes the game
and the referee key named in the order header and the seats it looks its player up in.
Everything a player typed is data here: the words around the orders, the order lines with their
comments and their mistakes, the nonce, and the time they signed and sent. ``make_example.py``
signs the orders, writes the mail in the form of the player's mail program
(``examples/atlantis/client_forms.py``) and plays it through pbem. The orders of each window
were written after reading the report that opened it (README.md tells the story).
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

GAME = "oly-example"
REFEREE_KEY = "SHA256:4uwPErZ4mXElsJtAyDpibMv94Ip0WngPj+FJrXZEN8Y"
"""The fingerprint of the game's referee key as the setup report prints it
(reports/public/000-setup.txt), copied into every order header's ``referee:`` line."""

PLAYERS = (
    Player("web", "Hélène Marchetti", "helene@example.org", "mail.example.org",
           "198.51.100.84", "web.key", "web.pub", "pbem"),
    Player("un", "Tomasz Wierzbicki", "tomek@example.net", "smtp.example.net", "192.0.2.163",
           "un_ed25519", "un_ed25519.pub", "ssh"),
)
"""The seats in the ruleset's order (``pbem game new olympica ... --player web=...
--player un=...``)."""

OlyLetter = example_play.letter_class(GAME, REFEREE_KEY, PLAYERS)
"""A letter of this game: the Atlantis example's ``Letter`` with this game's header and seats."""

# -- Game-Turn 0: setup (5.2, 4.3), the initial drops (5.3) and their compulsion (14.2) -----------

TURN0 = [
    OlyLetter(
        file="01-web-thunderbird.eml", window="0.setup", role="web", client="thunderbird",
        date="2027-04-05 21:37:12 +0200", issued="2027-04-05T19:33:48Z",
        nonce="3c9e51a07f2d48b6a1e0c4d79b25f813",
        message_id="<4f0b2c7e-81d3-4a6e-b5c9-0e7d3a1f92b4@example.org>",
        subject="oly-example: the Web sets up",
        before="""\
Referee,

the Web's setup, signed with pbem sign.

""",
        orders="""\
# Helene (the Web), 5.2 and 4.3. The Short Advanced Scenario sets up face
# up: the U.N. will see all of this, so the Generator goes where no drop
# can reach it at once, underground in a Deep Tunnel in the dotted area.
# The four free tunnels (4.3, 13.2): a Deep Tunnel chain from the fixed
# Tunnel Mouth at 1717 to 1615, and a second Mouth at 1718 (incline).
tunnel deep 1616
tunnel deep 1716
tunnel deep 1615
tunnel mouth 1718
place W19 1615u
# Infantry in every tunnel between 1717 and the Generator, and one on
# the surface above it (13.3: two levels in a hex).
place W01 1717u
place W02 1616u
place W03 1716u
place W04 1615
place W22 1718u
place W14 1818u
place W15 1010u
# The four Strongpoints (range 7) around the dotted area, on clear hexes,
# none on a tunnel hex (5.2, 13.2).
place W10 1413
place W12 1713
place W16 1517
place W20 1815
# The screen.
place W05 1514
place W06 1614
place W07 1714
place W08 1816
place W09 1617
place W11 1416
place W13 1315
place W17 1212
place W18 1918
place W21 1512
# U.N. units I retreat are pushed away from the Generator; mine
# underground stay put (12.3, 12.3.2).
retreat away 1615
underground stay
""",
        after="""\

Helene
""",
        expect="accepted",
    ),
    OlyLetter(
        file="02-un-mutt-sig.eml", window="0.drop", role="un", client="mutt",
        date="2027-04-06 08:52:31 +0200", issued="2027-04-06T06:49:05Z",
        nonce="a07d3e9c15b84f2e6d0c9b1a78e4f352",
        message_id="<20270406065231.GA2210@lander.example.net>",
        subject="oly-example: initial drops",
        before="""\
Referee,

the initial drops. Signed with my SSH key (ssh-keygen -Y sign -n
pbem-orders); the signature is attached as orders.txt.sig.

""",
        orders="""\
# Tomasz (U.N.), 5.3: the initial drops. Everything is face up (4.3):
# the Generator, W19, sits under 1615 in a Deep Tunnel. One drop
# straight beside it; the Web may compel one drop within two hexes of
# the Generator (14.2), and this is the one it will want to move.
drop H1 1515 H2 1415 L1 1414
# The Lifter, the BOAR and a Laser Tank far to the west, where no
# compulsion can push the Lifter into a cliff (19.2: three hexes).
# Dropped now, they may move and be lifted in Game-Turn 1 (14.4).
drop F1 0715 B1 0714 T2 0814
# A Laser Tank and two Heavy Infantry north-east of the dotted area.
drop T1 1911 H3 1910 H4 1810
""",
        after="""\

-- 
Tomasz
""",
        expect="accepted",
    ),
    OlyLetter(
        file="03-web-gmail.eml", window="0.compel", role="web", client="gmail",
        date="2027-04-06 12:18:44 +0000", issued="2027-04-06T12:15:20Z",
        nonce="e58b20d47a1c963f0b2e7d4c1a95f086",
        message_id="<CAH7vQp2x9Lr4mTz0eW8kN3uJ5bY6cF1dS2gA7hZq4oXv8iRt3w@mail.example.org>",
        subject="oly-example: compulsion",
        before="""\
Referee,

drop 1 goes elsewhere.

""",
        orders="""\
# Helene (the Web), 14.2: drop 1 is targeted within two hexes of the
# Generator (H1 1515 is next to 1615). It lands three hexes north-west,
# the same shape kept: H1 1412, H2 1313, L1 1312, four hexes from the
# Generator and under the guns of W10, W13, W17 and W21. No translation
# of three hexes reaches a cliff from there.
compel-drop 1 1412
""",
        after="""\

H.
""",
        expect="accepted",
    ),
]

# -- Game-Turn 1 -----------------------------------------------------------------------------------

TURN1 = [
    OlyLetter(
        file="04-web-apple.eml", window="1.web", role="web", client="apple",
        date="2027-04-06 21:05:09 +0200", issued="2027-04-06T19:01:27Z",
        nonce="71c4a9e03d5b28f6e1a0d7c3b9e45f12",
        message_id="<9C1E4A2B-3D5F-4E6A-8B7C-0D1E2F3A4B5C@example.org>",
        subject="oly-example: Game-Turn 1, the Web",
        before="""\
Referee,

my first Player-Turn. The orders are attached (orders.txt, signed with
pbem sign).

""",
        orders="""\
# Helene (the Web), Game-Turn 1. Compulsion Phase (19.2): L1 walks three
# hexes west into the cliff at 1011 and rolls for an avalanche (7.4.3);
# if it survives, it is far from the Generator and at half strength
# (10.4.2) while it stays there.
compel L1 1211 1111 1011
# Movement Phase: W09 steps onto the surface of the Deep Tunnel at 1616,
# so that no BOAR can stand over it (13.3: W02 stays underneath).
move W09 1616
# Ranged Combat Phase. W10 (30) at H1 (10) next to it: 3-1, and a
# Strongpoint firing at infantry suffers no adverse result (12.1 B).
fire H1 by W10
# Two Infantry at H2: 16 to 10, 1-1.
fire H2 by W17 W13
# Two Strongpoints at the Laser Tank T1: 60 to 25, 2-1. If an EX comes,
# W20 is the one lost (12.6).
fire T1 by W12 W20 lose W20
""",
        after="""\

Helene
""",
        expect="accepted",
    ),
    OlyLetter(
        file="05-un-mutt-attach.eml", window="1.un", role="un", client="mutt-attach",
        date="2027-04-07 07:41:56 +0200", issued="2027-04-07T05:38:10Z",
        nonce="5f2e8a1c7b390d64e2a5c8f0b1d47e93",
        message_id="<20270407053856.GB2210@lander.example.net>",
        subject="oly-example: Game-Turn 1, U.N.",
        before="""\
Referee,

orders.txt and its signature attached.

-- 
Tomasz
""",
        orders="""\
# Tomasz (U.N.), Game-Turn 1. H1 is gone and L1 sits in the cliff at
# 1011. Drop Phase (14.1): two more drops beside the Generator. The Web
# may compel only one of them (14.2).
drop H5 1515 H6 1516 T3 1415
# H7 drops onto W05 and Close Assaults it on landing (14.3).
drop H7 1514 L2 1513 H8 1613
# Movement Phase. L1 climbs out of the cliff to be picked up.
move L1 1012
# F1 (25 hexes, 18.1): the BOAR at 0714 and T2 at 0814 aboard (46 of
# the 50, 18.2), T2 set down at 1013 before L1 is picked up at 1012;
# L1 set down at 1715 and the BOAR over the Deep Tunnel at 1716, where
# it drills next turn (17.3). F1 flies on over the cliff at 1717 (18.3)
# and lands at 1817.
lift F1 0714 +B1 0814 +T2 0914 1013 -T2 1012 +L1 1112 1211 1311 1410 1511 1611 1712 1812 1813 1814 1715 -L1 1716 -B1 1717 1817
move H4 1811 1812 1813
move H3 1911 1912
# T1 follows H3 to 1912.
move T1 1910 1911 1912
# Ranged Combat Phase: a Laser Tank firing at infantry suffers no
# adverse result (16.1).
fire W13 by T2
fire W07 by T1 H4 lose H4
fire W04 by T3 H5 H6 lose H6
fire W21 by H2 L2 H8 lose H8
# Second Movement Phase (15.0): L2 dropped this turn, and may still move
# now (14.4).
move2 L2 1612 1712 1812
""",
        after="",
        expect="accepted, problems: line 26 (7.1)",
    ),
    OlyLetter(
        file="06-web-thunderbird-reply.eml", window="1.compel", role="web",
        client="thunderbird-reply",
        date="2027-04-07 10:12:40 +0200", issued="2027-04-07T08:10:02Z",
        nonce="c2d80f5e7a3b41e96c1d0a8f27b5e364",
        message_id="<1d7e3a90-5b2c-4f8e-a6d1-93c0e2b7f415@example.org>",
        subject="",
        before="""\
Compelled, as below.

""",
        orders="""\
# Helene (the Web), 14.2 again. Drop 1 would land next to W04, above the
# Generator: it lands three hexes south instead, H6 in the cliff at 1519
# (an avalanche on a 6, and half strength if not, 10.4.2) and T3 in the
# incline at 1418. Drop 2 may land: W05 is waiting for H7.
compel-drop 1 1518
""",
        after="""\

H.
""",
        expect="accepted",
    ),
]

# -- Game-Turn 2, the last (house rules: scenarios.short-advanced.turns = 2) ---------------------

TURN2 = [
    OlyLetter(
        file="07-web-outlook.eml", window="2.web", role="web", client="outlook",
        date="2027-04-07 19:26:33 +0200", issued="2027-04-07T17:22:51Z",
        nonce="8b3f06d2e9a147c5b0e6f1d3a82c9e57",
        message_id="<AM9PR04MB7731E2C05D0B8A4F19E3C7A2B8D40@AM9PR04MB7731.eurprd04.prod.outlook.com>",
        subject="oly-example: Game-Turn 2, the Web",
        before="""\
Referee,

the last Web Player-Turn, signed with pbem sign below.

""",
        orders="""\
# Helene (the Web), Game-Turn 2, the last. The BOAR stands over my Deep
# Tunnel at 1716 and L1 waits beside it: if the BOAR drills (17.3), L1
# goes under 1716 at W03, and if it wins there, on to the Generator at
# 1615 with its second movement (15.0). Compulsion Phase (19.2): L1
# walks three hexes east.
compel L1 1814 1914 2014
# Reinforcement Phase (21.0): Game-Turn 2 is even, so the eliminated
# Infantry come in from the west edge, the edge hex counted as the first
# of their three.
enter W05 0114 0214 0314
enter W07 0115 0215 0315
enter W13 0116 0216 0316
# Movement Phase: W08 Close Assaults the Lifter at 1817 (11.0).
move W08 1817
# Ranged Combat Phase: every Strongpoint in reach at the BOAR, 90 to 21;
# an attack on a parenthesized strength suffers no adverse result (12.1 A).
fire B1 by W20 W16 W12
# W10 and W06 at H8: 38 to 10, 3-1.
fire H8 by W10 W06
""",
        after="""\

Helene
""",
        expect="accepted",
    ),
    OlyLetter(
        file="08-un-mutt-sig.eml", window="2.un", role="un", client="mutt",
        date="2027-04-08 07:58:17 +0200", issued="2027-04-08T05:55:40Z",
        nonce="2d9c71e4b0a8f35e6c1b7d0e9a4f2836",
        message_id="<20270408055817.GA3318@lander.example.net>",
        subject="oly-example: Game-Turn 2, U.N.",
        before="""\
Referee,

the last U.N. Player-Turn. Signature attached.

""",
        orders="""\
# Tomasz (U.N.), Game-Turn 2, the last. The BOAR is gone, and with it
# the new Tunnel Mouth I wanted at 1716. What is left is the way in
# through the fixed Tunnel Mouth at 1717 (W01 under it) and the one at
# 1718 (W22). No victory now: the Generator is two tunnels further.
# Movement Phase: L1 walks back, to 1816 beside 1717.
move L1 2015 1916 1816
# F1 fetches L2 from 1812 and sets it down at 1617, beside both Mouths,
# then lands back at 1817 (18.1; over the cliff at 1717, 18.3).
lift F1 1816 1716 1715 1814 1813 1812 +L2 1813 1814 1715 1716 1717 1617 -L2 1717 1817
# Ranged Combat Phase.
fire W17 by T2
fire W09 by T3 H5 lose H5
# Second Movement Phase (15.0): both Light Infantry go under a Tunnel
# Mouth from the next hex (13.4 G) and Close Assault what is there.
move2 L1 1717u
move2 L2 1718u
""",
        after="""\

-- 
Tomasz
""",
        expect="accepted",
    ),
]

LETTERS = TURN0 + TURN1 + TURN2
"""Every letter, in the order written."""
