"""The af-example's players and their letters to the referee: the orders as they wrote them.

The letter and player shapes are the Atlantis example's (``examples/atlantis/example_mails.py``,
imported, not copied): :data:`AfLetter` (``example_play.letter_class``) only changes the game and
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

GAME = "af-example"
REFEREE_KEY = "SHA256:kJZW6XRV34AWTbtJiPU81y97UCx8+W4RAP1PsEqb/Pk"
"""The fingerprint of the game's referee key as the setup report prints it
(reports/public/000-setup.txt), copied into every order header's ``referee:`` line."""

PLAYERS = (
    Player("arcturan", "Ines Achterberg", "ines@example.org", "mail.example.org",
           "198.51.100.61", "arcturan.key", "arcturan.pub", "pbem"),
    Player("empire", "Vaclav Korsakov", "vaj@example.net", "smtp.example.net", "192.0.2.140",
           "empire_ed25519", "empire_ed25519.pub", "ssh"),
)
"""The seats in the ruleset's order (``pbem game new attackforce ... --player arcturan=...
--player empire=...``)."""

AfLetter = example_play.letter_class(GAME, REFEREE_KEY, PLAYERS)
"""A letter of this game: the Atlantis example's ``Letter`` with this game's header and seats."""

# -- turn 0: the Batteries ---------------------------------------------------------------------

TURN0 = [
    AfLetter(
        file="01-empire-mutt-sig.eml", window="0.deploy", role="empire", client="mutt",
        date="2027-03-02 21:14:09 +0100", issued="2027-03-02T20:11:37Z",
        nonce="5d0c8f3e41b7a29e06c3d8f1b2a47e90",
        message_id="<20270302201409.GA4127@novaship.example.net>",
        subject="af-example: Batteries",
        before="""\
Referee,

my fourteen Batteries. Signed with my SSH key (ssh-keygen -Y sign -n
pbem-orders); the signature is attached as orders.txt.sig.

""",
        orders="""\
# Vaclav (Empire), How to Set Up 4: one Battery in each Battery Space
# but two. The Lasers reach farthest: two outer corners and the south
# side. The Blasters close around the middle of the hull, where the
# intake tube must be; the Pompoms where the fighters must pass.
place laser 39 46 128
place blaster 65 68 101 104 70
place pompom 41 44 63 99 106 125 130
# 123 stays empty: a Battery can slide into it through the Tunnel
""",
        after="""\

-- 
Vaclav
""",
        expect="accepted, problems: line 15 (How to Set Up 4)",
    ),
]

# -- turn 1 ----------------------------------------------------------------------------------------

TURN1 = [
    AfLetter(
        file="02-arcturan-thunderbird.eml", window="1.arcturan", role="arcturan",
        client="thunderbird",
        date="2027-03-03 19:02:44 +0000", issued="2027-03-03T18:58:12Z",
        nonce="a3f1e07c5b2d48960e1f7c3a9b5d2e84",
        message_id="<6b1e0c2a-7f35-4d8e-9a41-0c5e7b2d3f68@example.org>",
        subject="af-example: Red Flight in",
        before="""\
Hello referee,

Red Flight comes in from the east. Signed with pbem sign.

""",
        orders="""\
# Ines (Arcturan), turn 1. Step 1: the Red Flight on the east edge, r1 to
# r7 from north to south (How to Play 1). Step 2: three fighters dive on
# three Hull Spaces at once, so that the Empire cannot tell which one
# matters; r1 shoots at the Laser on 46 on the way.
enter red east 36 48 60 72 84 96 108
move r4 71 attack 70 70 69
move r5 83 82 81 80
move r6 95 94 93
move r1 35 34 33 attack 46
move r3 59 47 48
""",
        after="""\

Ines
""",
        expect="accepted, problems: line 18 (How to Move 6)",
    ),
    AfLetter(
        file="03-empire-mutt-attach.eml", window="1.empire", role="empire",
        client="mutt-attach",
        date="2027-03-04 07:48:31 +0100", issued="2027-03-04T06:45:50Z",
        nonce="e2b9047d1c6a53f8b0d94e7a2c1f6035",
        message_id="<20270304064831.GB4127@novaship.example.net>",
        subject="af-example: turn 1, Empire",
        before="""\
Referee,

orders.txt and its signature attached.

-- 
Vaclav
""",
        orders="""\
# Vaclav (Empire), turn 1. Step 3: three fighters sat down on Hull Spaces
# 2, 4 and 6. One of them may sit on the tube: look under those three
# (How to Play 3a) rather than launch.
look h2 h4 h6
# Step 4: every Battery that reaches a fighter on the hull shoots at it.
fire blaster5 r4
fire blaster2 r4
fire laser2 r4
fire pompom5 r6
fire blaster4 r6
fire blaster1 r5
fire pompom2 r1
fire laser1 r4
# the south-east Laser slides along the Tunnel to cover the east edge
tunnel laser3 130
""",
        after="",
        expect="accepted, problems: line 21 (How to Attack 1)",
    ),
]

# -- turn 2 ----------------------------------------------------------------------------------------

TURN2 = [
    AfLetter(
        file="04-arcturan-gmail.eml", window="2.arcturan", role="arcturan", client="gmail",
        date="2027-03-04 20:31:05 +0000", issued="2027-03-04T20:27:41Z",
        nonce="0c7d5e3f9a1b24e8d6f0a3c5b7e9d142",
        message_id="<CAF3xq9e7Tz1wV0u+Kd2LmPq8sRt4JvXn6oYb1cHgA5eW9iQZ3g@mail.example.org>",
        subject="af-example: turn 2, Blue Flight",
        before="""\
Referee,

they found the tube at once. Three fighters lost; Blue Flight comes in.
Orders below, signed with pbem sign.

""",
        orders="""\
# Ines (Arcturan), turn 2. Step 5 of turn 1: r5 sits on Hull Space 4,
# but that marker is face up and blank: it may not be attacked again.
torpedo r5
# Step 1: Blue Flight from the north. Step 2: r5 takes r4's place on the
# explosion (Hull Space 2, space 69, face up: it can still be hit in
# step 5) and shoots at the Blaster beside it; the others draw fire.
enter blue north 6 7 8 9 10 11 12
move r5 81 69 attack 70
move r3 59 71 attack 70
move r7 107 attack 106 95 83
move b4 21 33 45 57
move b5 22 34 attack 46
""",
        after="""\

Ines
""",
        expect="accepted, problems: line 11 (How to Win)",
    ),
]

TURN2 += [
    AfLetter(
        file="05-empire-mutt-sig.eml", window="2.empire", role="empire", client="mutt",
        date="2027-03-05 08:12:56 +0100", issued="2027-03-05T07:10:03Z",
        nonce="9b4e2a7c0d5f13e6a8c1b3d5f7092e4a",
        message_id="<20270305071256.GA5310@novaship.example.net>",
        subject="af-example: turn 2, Empire step 3",
        before="""\
Referee,

step 3 only this time: I want to see what comes out of the cup before I
move. Signature attached.

""",
        orders="""\
# Vaclav (Empire), turn 2, step 3. Everyone knows where the tube is now:
# no more looking. Cobras on all four Launchers (How to Play 3b); `wait`
# opens a second window for step 4, after the report shows what was drawn.
launch wait
""",
        after="""\

-- 
Vaclav
""",
        expect="accepted",
    ),
]

TURN2 += [
    AfLetter(
        file="06-empire-mutt-sig.eml", window="2.empire-move", role="empire", client="mutt",
        date="2027-03-05 12:40:18 +0100", issued="2027-03-05T11:37:25Z",
        nonce="4f8a1c6e2b9d0735e1a4c7f0b3d6e829",
        message_id="<20270305113718.GA6022@novaship.example.net>",
        subject="af-example: turn 2, Empire step 4",
        before="""\
Referee,

four Cobras, no Korsen. Step 4 below; signature attached.

""",
        orders="""\
# Vaclav (Empire), turn 2, step 4. First the Falcon on the tube (r5 on
# 69): every gun in reach, one after the other. Whatever is left of the
# list finds its target gone and is skipped, which is fine.
fire blaster5 r5
fire blaster2 r5
fire blaster1 r5
move c1 53 54 55 56 attack r5
# the rulebook's own example: a Cobra (A) attacks an Eagle (B) two spaces
# away, needing 7 or less; c2 stops on 58 to shoot, then flies on.
move c2 58 attack r3 59 60
fire pompom5 r7
fire laser3 r7
fire pompom2 b5
""",
        after="""\

-- 
Vaclav
""",
        expect="accepted",
    ),
]

# -- turn 3, the last (house rules: turn_limit 3) ------------------------------------------------

TURN3 = [
    AfLetter(
        file="07-arcturan-apple.eml", window="3.arcturan", role="arcturan", client="apple",
        date="2027-03-05 22:05:37 +0000", issued="2027-03-05T22:01:15Z",
        nonce="d1e6b3a80f2c7459b6e0d3a1c8f5e472",
        message_id="<8E2C4B1A-6F3D-4E7A-9B05-1C2D3E4F5A6B@example.org>",
        subject="af-example: turn 3, Green Flight",
        before="""\
Referee,

the last turn. My orders are attached (orders.txt, signed with pbem sign).

""",
        orders="""\
# Ines (Arcturan), turn 3, the last one (the house rules end the game
# after turn 3). Step 5 of turn 2: no fighter sits on a Hull Marker.
# Step 1: Green Flight from the west. Step 2: b4 drops from Launcher 2
# onto the tube (69) and shoots the Blaster beside it; everyone else
# shoots at what could shoot at b4.
enter green west 37 49 61 73 85 97 109
move b4 69 attack 70
move r2 attack c2 47 59
move b1 18 30 42 attack c1
move b6 23 35 47 attack 70
move b2 19 31 43 55 67 79
move g3 62 attack 63
""",
        after="""\

Ines
""",
        expect="accepted, problems: line 19 (How to Move)",
    ),
    AfLetter(
        file="08-empire-mutt-attach.eml", window="3.empire", role="empire",
        client="mutt-attach",
        date="2027-03-06 09:55:02 +0100", issued="2027-03-06T08:51:48Z",
        nonce="70b5e2d9c4a1f836e0b7d2a5c9f1e364",
        message_id="<20270306085502.GA7781@novaship.example.net>",
        subject="af-example: turn 3, Empire",
        before="""\
Referee,

the last stand. orders.txt and its signature attached.

-- 
Vaclav
""",
        orders="""\
# Vaclav (Empire), turn 3. Step 3: launch on the two free Launchers, and
# if Korsen comes out of the cup he goes back for a Cobra: I want two
# fighters now, not one that shoots twice (Vaj Korsen). No `wait`: the
# new pieces are named by their Launcher space, 57 and 52.
launch return-korsen
# Step 4: b4 on the tube must not survive to step 5.
fire blaster5 b4
fire blaster2 b4
move 57 attack 69
fire blaster1 b4
move 52 53 54 55 56 attack 69
move c4 105 93 81 attack 69
# and the Lasers clear the way north
fire laser1 b1
""",
        after="",
        expect="accepted",
    ),
]

LETTERS = TURN0 + TURN1 + TURN2 + TURN3
"""Every letter, in the order written."""
