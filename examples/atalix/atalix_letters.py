"""The atx-example's players and their letters to the referee: the orders as they wrote them.

The letter and player shapes are the Atlantis example's (``examples/atlantis/example_mails.py``,
imported, not copied): :data:`AtxLetter` (``example_play.letter_class``) only changes the game
and the referee key named in the order header and the seats it looks its player up in.
Everything a player typed is data here: the words around the orders, the order lines with their
comments and their mistakes, the nonce, and the time they signed and sent. ``make_example.py``
signs the orders, writes the mail in the form of the player's mail program
(``examples/atlantis/client_forms.py``) and plays it through pbem. The orders of each window
were written after reading the report that opened it: each set of turns shows a player the four
cards of that player's hand only then (README.md tells the story).
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

GAME = "atx-example"
REFEREE_KEY = "SHA256:U+XY7K2/r+n+mdI34WGIkXWFDvRIsly+TtWXCUjZn/4"
"""The fingerprint of the game's referee key as the setup report prints it
(reports/public/000-setup.txt), copied into every order header's ``referee:`` line."""

PLAYERS = (
    Player("red", "Amara Okafor", "amara@example.org", "mail.example.org", "198.51.100.27",
           "red.key", "red.pub", "pbem"),
    Player("blue", "Kai Lindqvist", "kai@example.net", "smtp.example.net", "192.0.2.58",
           "blue_ed25519", "blue_ed25519.pub", "ssh"),
)
"""The seats in the ruleset's order (``pbem game new atalix ... --player red=...
--player blue=...``): the pawns' colours."""

AtxLetter = example_play.letter_class(GAME, REFEREE_KEY, PLAYERS)
"""A letter of this game: the Atlantis example's ``Letter`` with this game's header and seats."""

# -- Setup: the Starting Deck and the Active Card (rulebook "Starting Deck", "Setup: Active Card")

SETUP = [
    AtxLetter(
        file="01-red-thunderbird.eml", window="0.setup", role="red", client="thunderbird",
        date="2027-05-03 21:12:40 +0200", issued="2027-05-03T19:09:15Z",
        nonce="b41e7c02d95a3f68e0c1a7d4b92f5e36",
        message_id="<8e2c41d7-5a9b-4f03-b6e1-2d7c90a4f3b8@example.org>",
        subject="atx-example: my starting cards",
        before="""\
Hi referee,

my two extra starting cards and my Active Card, signed with pbem sign.

""",
        orders="""\
# Amara (red), Starting Deck: two more cards from the remaining starting
# cards, dealt in turn from the first player (that is me). The Solar
# Array wants scrap: a Gain Resource (scrap) first, then an Action.
choose gain-scrap action
# Setup: Active Card. The Oxygen, resolved every turn: one more play
# and one more action each turn.
active oxygen
""",
        after="""\

Amara
""",
        expect="accepted",
    ),
    AtxLetter(
        file="02-blue-mutt-sig.eml", window="0.setup", role="blue", client="mutt",
        date="2027-05-04 08:03:27 +0200", issued="2027-05-04T06:01:52Z",
        nonce="5c8a0f3e17b64d29a6e2c0d8f41b937a",
        message_id="<20270504060327.GA1187@crater.example.net>",
        subject="atx-example: starting cards",
        before="""\
Referee,

my starting cards. Signed with my SSH key (ssh-keygen -Y sign -n
pbem-orders); the signature is attached as orders.txt.sig.

""",
        orders="""\
# Kai (blue), Starting Deck: an Upgrade, to buy from the market twice as
# often, then a Research (the team needs research level III for a
# second active card).
choose upgrade research
# No `active` line: the Oxygen is the Active Card by default.
""",
        after="""\

-- 
Kai
""",
        expect="accepted",
    ),
]

# -- Round 1 (rulebook "Planning Phase", "Action Phase") ----------------------------------------

ROUND1 = [
    AtxLetter(
        file="03-red-gmail.eml", window="1.set1", role="red", client="gmail",
        date="2027-05-04 19:41:08 +0000", issued="2027-05-04T19:38:33Z",
        nonce="e07a93c5d1b24f8e6a0c3d9b71f2e485",
        message_id="<CAJ4mRq8vT2nWx5Lk0eP7sB3yD9hG1cF6aZ2uQ4oNv7iXt8Rw5e@mail.example.org>",
        subject="atx-example: round 1, first set",
        before="""\
Referee,

my first set of turns.

""",
        orders="""\
# Amara (red), round 1, set of turns 1. My hand: gain-scrap-2 upgrade-1
# action-2 action-5, and the Oxygen active (one more play and one more
# action). Two plays: an Action, then the Gain Resource (scrap).
play action-2
play gain-scrap-2
# Two basic actions: to the scrap cube just above the ship, and take it.
move 0504
collect
# And the Gain Resource: one more scrap for the team.
use gain-scrap-2 0
""",
        after="""\

Amara
""",
        expect="accepted",
    ),
    AtxLetter(
        file="04-blue-mutt-attach.eml", window="1.set1", role="blue", client="mutt-attach",
        date="2027-05-05 07:22:45 +0200", issued="2027-05-05T05:19:58Z",
        nonce="9d2f64b1a8e03c57f1b6d0a4e29c8735",
        message_id="<20270505052245.GB1187@crater.example.net>",
        subject="atx-example: round 1, set 1",
        before="""\
Referee,

orders.txt and its signature attached.

-- 
Kai
""",
        orders="""\
# Kai (blue), round 1, set of turns 1: research-3 upgrade-3 upgrade-2
# research-2 in my hand, the Oxygen active: two plays and one action.
play upgrade-3
play research-3
# Swap Gear from the market. The Card Cost Meter's left token starts on
# its bottom zero: each resource symbol costs 0, plus the card's +N, so
# its scrap is free and its carbon +1 costs 1. It joins my deck at the
# next shuffle.
use upgrade-3 0 swap-gear-1
# One step up the Research Track, for 1 mineral.
use research-3 0
# My one action: to the carbon cube at 0705, two spaces east.
move 0605 0705
""",
        after="",
        expect="accepted, problems: line 21 (Movement Restrictions)",
    ),
    AtxLetter(
        file="05-red-thunderbird-reply.eml", window="1.set2", role="red",
        client="thunderbird-reply",
        date="2027-05-05 18:47:19 +0200", issued="2027-05-05T16:44:02Z",
        nonce="41f8c2a9e6d07b35c1e4a8f0d92b6c57",
        message_id="<3a9f0c2e-6d41-4b87-9e5a-c17d2f08b3e6@example.org>",
        subject="",
        before="""\
The last set of the round, and the Solar Array.

""",
        orders="""\
# Amara (red), round 1, set of turns 2, the round's last: gain-minerals-2
# research-1 action-1 in my hand. The team has 4 scrap and 1 minerals:
# the Solar Array (2 scrap 1 minerals) is in reach.
play action-1
play gain-minerals-2
# And the Upgrade I kept back last time, for a Weapons card.
play upgrade-1
use upgrade-1 0 weapons-1
# Up to the scrap cube at 0603 (one level: a climb), and take it.
climb 0603
collect
use gain-minerals-2 0
# Build Projects at the end of the round: I have the die, so my proposal
# stands. The disc goes just above the ship, where I started.
build solar-array
place solar 0504
""",
        after="""\

Amara
""",
        expect="accepted, problems: line 15 (Planning Phase); line 16 (Action Phase)",
    ),
    AtxLetter(
        file="06-blue-mutt-sig.eml", window="1.set2", role="blue", client="mutt",
        date="2027-05-06 07:35:50 +0200", issued="2027-05-06T05:33:14Z",
        nonce="c6e1d08f3a92b547e0f1c9a6d3b8e274",
        message_id="<20270506053550.GA2043@crater.example.net>",
        subject="atx-example: round 1, set 2",
        before="""\
Referee,

set 2. The move uphill was my mistake: a climb this time. Signature
attached.

""",
        orders="""\
# Kai (blue), round 1, set of turns 2: action-3 action-4 gain-scrap-1.
# Two Action cards and the Oxygen: three basic actions.
play action-3
play action-4
# 0605 is level with the ship; 0705 is one level up: a climb.
move 0605
climb 0705
collect
# My proposal for the end of the round: the Ship Phaser. Amara has the
# die, so hers wins if she sent one (the first player's proposal).
build ship-phaser
""",
        after="""\

-- 
Kai
""",
        expect="accepted",
    ),
]

# -- Round 2, the last (house rules: round_track.loss for 2 players = 4) ------------------------

ROUND2 = [
    AtxLetter(
        file="07-blue-mutt-sig.eml", window="2.set1", role="blue", client="mutt",
        date="2027-05-06 21:08:12 +0200", issued="2027-05-06T19:05:41Z",
        nonce="2b7d91e4f0a36c85d2e9b1f4a07c63e8",
        message_id="<20270506190812.GA2391@crater.example.net>",
        subject="atx-example: round 2, set 1",
        before="""\
Referee,

round 2, first set; I have the die now. Signature attached.

""",
        orders="""\
# Kai (blue), round 2, set of turns 1. The die passed to me: I am the
# first player, my Action Phase comes before Amara's. My hand:
# research-2 upgrade-3 action-4 action-3; the swap-gear-1 I bought is
# somewhere in my deck.
play upgrade-3
play action-4
# The alien came out to 0802, the mouth of the cave, where Chapter 4
# will take us: an Exosuit for the climbs, its minerals +1 at the
# meter's 0 costing the team's 1 mineral.
use upgrade-3 0 exosuit-3
# Two basic actions: the scrap cube at 0605 that I walked over last time.
move 0605
collect
""",
        after="""\

-- 
Kai
""",
        expect="accepted",
    ),
    AtxLetter(
        file="08-red-apple.eml", window="2.set1", role="red", client="apple",
        date="2027-05-07 08:16:37 +0200", issued="2027-05-07T06:14:09Z",
        nonce="7e0c35a9b2d14f68c9a1e7d03f5b2c94",
        message_id="<5B8E2C41-9A7D-4F36-B0E2-6C1D8A3F7E95@example.org>",
        subject="atx-example: round 2, set 1",
        before="""\
Referee,

my orders are attached (orders.txt, signed with pbem sign).

""",
        orders="""\
# Amara (red), round 2, set of turns 1. Kai has the die (it passed
# left), so he acts first. My hand: action-5 research-1 gain-scrap-2
# gain-minerals-2.
play research-1
play action-5
# The team has 1 minerals: one step up the Research Track. Two steps
# reach level II and its dice symbol.
use research-1 0
# Then to the star at 0404 beside the ship, to scavenge the top Upgrade
# card, scrapped for a mineral (if the card lists minerals among its
# costs; Scavenge).
move 0404
scavenge scrap minerals
""",
        after="""\

Amara
""",
        expect="accepted",
    ),
    AtxLetter(
        file="09-blue-mutt-attach.eml", window="2.set2", role="blue", client="mutt-attach",
        date="2027-05-07 19:52:03 +0200", issued="2027-05-07T17:49:27Z",
        nonce="f3a08d6c2e91b74a5d0c8e1f6b39a207",
        message_id="<20270507174903.GC2391@crater.example.net>",
        subject="atx-example: round 2, set 2",
        before="""\
Referee,

the last set. orders.txt and its signature attached.

-- 
Kai
""",
        orders="""\
# Kai (blue), round 2, set of turns 2: the round's last set, and the
# game's (the house rule puts the loss space of the round track at 4;
# the tracker is on 3). My hand: gain-scrap-1 upgrade-2 swap-gear-1
# research-3. The team: 1 carbon, 1 minerals, 1 scrap.
play gain-scrap-1
play upgrade-2
use gain-scrap-1 0
# The market shows two Swap Gears (swap-gear-2 and swap-gear-3): one of
# the duplicates may go back into the Upgrade deck first, its place
# refilled (Purchasing Cards). Then the Jet Pack, for 1 scrap (its scrap
# +1 at the meter's 0), to climb two levels at once.
use upgrade-2 0 jet-pack-2 replace swap-gear-3
# My one basic action: nothing to take within a move, so none.
# The team will have scrap and minerals for a second Solar Array, by the
# other space above the ship, if the round tracker leaves us the time.
build solar-array
place solar 0604
""",
        after="",
        expect="accepted",
    ),
    AtxLetter(
        file="10-red-outlook.eml", window="2.set2", role="red", client="outlook",
        date="2027-05-08 09:31:44 +0200", issued="2027-05-08T07:28:50Z",
        nonce="0d6b4e8f1c73a925e4b0d7c2f1a86e39",
        message_id="<AM9PR07MB5521C4E09A3F8B2D61E7C0A9F3B52@AM9PR07MB5521.eurprd07.prod.outlook.com>",
        subject="atx-example: round 2, set 2",
        before="""\
Referee,

my last set of turns, signed with pbem sign below.

""",
        orders="""\
# Amara (red), round 2, set of turns 2: action-2 upgrade-1 action-1. Two
# Action cards and the Oxygen: three basic actions, up the slope to the
# minerals cube at 0303 (two levels above 0404: two climbs).
play action-1
play action-2
climb 0403
climb 0303
collect
""",
        after="""\

Amara
""",
        expect="accepted",
    ),
]

LETTERS = SETUP + ROUND1 + ROUND2
"""Every letter, in the order written."""
