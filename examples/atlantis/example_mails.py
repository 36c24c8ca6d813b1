"""The example's players and their letters to the referee: the orders as they wrote them.

Everything a player typed is here as data: the words around the orders, the order lines with
their comments and their mistakes, the nonce their ``pbem sign`` (or ``openssl rand -hex 16``)
gave, and the time they signed and sent. :mod:`client_forms` turns a letter into the bytes
their mail program sends; ``make_example.py`` signs the orders with the player's key, writes
the mail and plays it through pbem. The orders of a turn were written after reading the
report that opened it, so they fit the board of that moment (see README.md for the story).
"""

from __future__ import annotations

import hashlib
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

GAME = "atl-example"
REFEREE = "referee@judge.example.org"
REFEREE_KEY = "SHA256:X4979eh8eFfTqRQPImvVEsDwI5MA7fkyH+4PPisZbrA"
"""The fingerprint of the game's referee key as the setup report prints it
(reports/public/000-setup.txt); every order template carries it on its ``referee:`` line,
which binds the orders to this judge (docs/signing.md, section 10)."""


@dataclass(frozen=True)
class Player:
    """A seat: ``role``, the name and address on their mail, the mail server they send
    through (``relay`` in an RFC 2606 example domain, ``relay_ip`` an RFC 5737 documentation
    address), their key files (in ``keys/``) and how they sign (``pbem`` envelope or ``ssh``
    signature)."""

    role: str
    name: str
    address: str
    relay: str
    relay_ip: str
    key_file: str
    public_file: str
    signs_with: str


PLAYERS = (
    Player("red", "Ruth Redfern", "ruth@example.org", "mail.example.org", "198.51.100.23",
           "red.key", "red.pub", "pbem"),
    Player("green", "Gareth Green", "gareth.green@example.com", "mail-out.example.com",
           "203.0.113.41", "green.key", "green.pub", "pbem"),
    Player("blue", "Bjørn Blå", "bjorn@example.net", "smtp.example.net", "192.0.2.77",
           "blue_ed25519", "blue_ed25519.pub", "ssh"),
)
"""The seats in turn order (``pbem game new ... --player red=... --player green=... --player
blue=...``)."""

PLAYER = {p.role: p for p in PLAYERS}

DELIVERY = timedelta(seconds=38)
"""From the sender's Date to the referee's server receiving the message."""


@dataclass(frozen=True)
class Letter:
    """One mail to the referee.

    ``file``: its name in ``mail/<window>/``; ``window``: the phase id it is for (``1.red``);
    ``client``: a writer of :mod:`client_forms` (``thunderbird``, ``thunderbird-reply``,
    ``apple``, ``gmail``, ``outlook``, ``mutt``, ``mutt-attach``); ``date``: the Date header
    in the sender's zone (``2026-12-01 20:14:05 +0000``); ``issued``: the order header's
    time (UTC); ``before``/``orders``/``after``: what the player typed, the orders being the
    body of the signed file under its header; ``expect``: how the judge must take it, in the
    form of README.md's table (``accepted``, ``accepted, problems: line 12 (RULE)``,
    ``accepted, replaces FILE``).
    """

    file: str
    window: str
    role: str
    client: str
    date: str
    issued: str
    nonce: str
    subject: str
    before: str
    orders: str
    after: str
    expect: str
    message_id: str
    to: str = REFEREE

    @property
    def player(self) -> Player:
        return PLAYER[self.role]

    @property
    def turn(self) -> int:
        return int(self.window.split(".", 1)[0])

    @property
    def phase(self) -> str:
        return self.window.split(".", 1)[1]

    @property
    def when(self) -> datetime:
        """``date`` as an aware datetime in the sender's zone."""
        return datetime.strptime(self.date, "%Y-%m-%d %H:%M:%S %z")

    # what client_forms reads besides the fields
    @property
    def arrival(self) -> datetime:
        """When the referee's server receives it (the date of its Received line)."""
        return (self.when + DELIVERY).astimezone(timezone.utc)

    @property
    def uuid(self) -> str:
        """A UUID of the kind Apple Mail puts in boundaries, fixed by the file name."""
        return str(uuid.UUID(hashlib.sha256(self.file.encode()).hexdigest()[:32])).upper()

    @property
    def outlook_id(self) -> str:
        """An Exchange mailbox-server-like id for Outlook's boundaries, fixed by the file name."""
        return "AM9PR04MB" + hashlib.sha256(self.file.encode()).hexdigest()[:24].upper()

    @property
    def mutt_boundary(self) -> str:
        """A 16-character boundary of the kind mutt draws, fixed by the file name."""
        digest = hashlib.sha256(("mutt" + self.file).encode()).digest()
        alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
        return "".join(alphabet[b % len(alphabet)] for b in digest[:16])

    def header(self) -> str:
        """The order file's header lines (DESIGN.md, "Signed orders"), ending with the blank
        line before the orders."""
        return (f"game: {GAME}\nturn: {self.turn}\nphase: {self.phase}\nrole: {self.role}\n"
                f"referee: {REFEREE_KEY}\nnonce: {self.nonce}\nissued: {self.issued}\n\n")

    def order_file(self) -> str:
        """The whole order file as the player saved it (LF line ends, one final newline)."""
        return self.header() + self.orders.strip("\n") + "\n"


# -- 0.setup: placement --------------------------------------------------------------------------

SETUP = [
    Letter(
        file="01-red-thunderbird.eml", window="0.setup", role="red", client="thunderbird",
        date="2026-12-01 20:14:05 +0000", issued="2026-12-01T20:11:37Z",
        nonce="0ed4596592d6468f2872c2c4130ed48c",
        message_id="<6b1f0c3e-9a7d-4c52-8e11-2f4d9b0a7c35@example.org>",
        subject="atl-example: red's placement",
        before="""\
Hello referee,

here is my placement for atl-example, signed with pbem sign as the setup report asks. I have \
gone for the north: my ship waits at 0504 under the forest at 0604, and the safe island at \
0101 is five hexes away.

""",
        orders="""\
# Ruth (red): placement. Three people on the forest at 0604, beside my
# ship, so that they can step aboard from the first turn: my 6, 5 and 4.
people 0604=6 0604=5 0604=4

# Then two on the forest behind them, two on the west forest, one in the middle of the island (the fortresses sink last) and two more inland.
people 0605 0605 0406 0406 0707 0606 0506

ship 0504 0603            # 0504 touches 0604; 0603 too, if someone beats me to it
monster 1205 1105 1204    # whoever sails for 1301 from the east coast meets it
""",
        after="""\

Good luck everyone!
Ruth
""",
        expect="accepted",
    ),
    Letter(
        file="02-green-gmail.eml", window="0.setup", role="green", client="gmail",
        date="2026-12-01 22:41:09 +0000", issued="2026-12-01T22:38:52Z",
        nonce="862e4d97e84dcab4e81020e154b0177a",
        message_id="<CAKq8w3xN2fT7uJp0mR5v9yE1hZs4bG6dL3cQ8aWk1oXe7tYi2A@mail.gmail.com>",
        subject="atl-example placement (green)",
        before="""\
Hi,

Green's placement. The east coast for me: 1301 or 1313, whichever the monsters leave open.

""",
        orders="""\
# people first: the forest on the east coast, then the forests behind it
people 1007  1007  1007  0907  0907  0808  0808
people 0806  0707  0707        # the middle: the last tiles to go
ship 1007  1106                # next to my people on 1007
monster 0303  0402             # red's ship will be in the north, surely
""",
        after="""\

Cheers,
Gareth
""",
        expect="accepted, problems: line 12 (Atlantis: Preparing to Play 3)",
    ),
    Letter(
        file="03-green-outlook.eml", window="0.setup", role="green", client="outlook",
        date="2026-12-02 08:47:20 +0000", issued="2026-12-02T08:45:10Z",
        nonce="27708035d3d1a96636feb558e1cb4869",
        message_id="<AM9PR04MB7A41C2D95E0F3B6A4C2E@AM9PR04MB7A41.eurprd04.prod.outlook.com>",
        subject="RE: atl-example placement (green) - corrected",
        before="""\
Hello again,

the receipt is right, 1007 is my own forest, not the sea: I meant 1107. Corrected orders \
below, they replace last night's.

""",
        orders="""\
# people first: the forest on the east coast, then the forests behind it
people 1007  1007  1007  0907  0907  0808  0808
people 0806  0707  0707        # the middle: the last tiles to go
ship 1107  1106                # the sea next to my people on 1007 (not 1007 itself!)
monster 0303  0402             # red's ship will be in the north, surely
""",
        after="""\

Gareth
""",
        expect="accepted, replaces 02-green-gmail.eml",
    ),
    Letter(
        file="04-blue-mutt-sig.eml", window="0.setup", role="blue", client="mutt",
        date="2026-12-02 19:55:12 +0100", issued="2026-12-02T18:49:03Z",
        nonce="629f61aad99a573550c2457614336c1a",
        message_id="<20261202185512.GA4127@fjord.example.net>",
        subject="atl-example setup orders, blue",
        before="""\
Evening referee,

blue's placement below. I sign with my SSH key (ssh-keygen -Y sign -n
pbem-orders); the signature of exactly these lines is attached as
orders.txt.sig.

""",
        orders="""\
# blue: the south-west, towards 0113.
# The two forests by my ship first, then the forest behind them.
people 0509 0509 0509 0509 0609 0609 0609 0608 0608
# and one in the middle if there is still room, else on 0708
people 0707 0708
ship 0510 0610
monster 0302 0202   # red will have the north-west to himself otherwise
""",
        after="""\

-- 
Bjørn
""",
        expect="accepted, problems: line 11 (Atlantis: Land Movement)",
    ),
]


# -- turn 1 ----------------------------------------------------------------------------------------

TURN1 = [
    Letter(
        file="05-red-apple.eml", window="1.red", role="red", client="apple",
        date="2026-12-02 21:03:12 +0000", issued="2026-12-02T20:58:40Z",
        nonce="5c1710e3d3c6c16f33e4d8c6f24e654d",
        message_id="<B2E7D4A1-58C3-4F0E-9D6B-7A1C3E5F2B90@example.org>",
        subject="atl-example turn 1 red",
        before="""\
Hi referee,

my first turn is attached (orders.txt, made with pbem sign -o orders.txt).
""",
        orders="""\
# Ruth (red), turn 1. Everyone aboard at 0504 and away before the monsters
# at 0302 and 0303 wake up.
board red1 0504
board red2 0504
board red3 0504
sail ship1 0503           # one hex north, out of their reach

# 1006 touches green's ship: whatever is under it is his problem.
sink 1006

if monster-or-shark: monster1 1206   # my own monster, next to green's ship
if monster: monster2 0203            # green's monster, out of my way
""",
        after="""\

Ruth
""",
        expect="accepted, problems: line 14 (Atlantis: People and/or Ships move)",
    ),
    Letter(
        file="06-green-gmail.eml", window="1.green", role="green", client="gmail",
        date="2026-12-03 12:20:31 +0000", issued="2026-12-03T12:16:02Z",
        nonce="e8ab0f1bda9f731cc990ab0387ad1b8f",
        message_id="<CAKq8w3z5Lr0bXe9Qv2Hn7Ws1Ju4Fk8Ya3Tc6Mp0Gd9Rh2NsE5B@mail.gmail.com>",
        subject="atl-example turn 1 green",
        before="""\
Hi,

my turn 1. Thanks a lot for the vortex, Ruth :(

""",
        orders="""\
# no ship any more. But 0906 touches the sea now, and three of my people
# stand beside it: if a boat is under it, it comes up right next to them.
walk green6  0808  0807  0907  # one more to the forest by the new bay
walk green9  0806              # and one from the crowded middle to 0806
sink 0906

if monster-or-shark: monster2  0403   # my monster goes to visit red
if monster: monster1  1204            # and hers moves away from my bay
""",
        after="""\

Gareth
""",
        expect="accepted, problems: line 11 (Atlantis: Land Movement)",
    ),
    Letter(
        file="07-blue-mutt-attach.eml", window="1.blue", role="blue", client="mutt-attach",
        date="2026-12-03 21:05:44 +0100", issued="2026-12-03T19:58:31Z",
        nonce="fb2f3bd4860c761fb9578146cfefc020",
        message_id="<20261203200544.GB4127@fjord.example.net>",
        subject="atl-example turn 1 blue",
        before="""\
Hello,

turn 1 for blue: orders.txt and its signature orders.txt.sig are
attached this time (ssh-keygen -Y sign -n pbem-orders orders.txt).

A vortex and then a boat: lively start. Sorry about the ship, Gareth.
""",
        orders="""\
# blue, turn 1: everyone from 0509 aboard before red's people come
# looking for a ship (an empty ship is anybody's).
board blue1 0510
board blue2 0510
board blue3 0510
sink 0804                 # as far from my people as the coast goes
if monster-or-shark: monster2 0403   # one hex from red's full ship
if monster: monster1 1106            # the mouth of green's new bay
""",
        after="""\

-- 
Bjørn
""",
        expect="accepted",
    ),
]


# -- turn 2 ----------------------------------------------------------------------------------------

TURN2 = [
    Letter(
        file="08-blue-mutt-standing.eml", window="2.red", role="blue", client="mutt",
        date="2026-12-03 22:12:09 +0100", issued="2026-12-03T21:09:47Z",
        nonce="c2b450629786fa0ff737c4f584b7ccaf",
        message_id="<20261203211209.GC4127@fjord.example.net>",
        subject="atl-example: standing order for blue",
        before="""\
Hi,

not my turn, but the tile I sank has given me something to keep, so
here is a standing order for it (signature attached as before).

""",
        orders="""\
# blue: whoever moves a shark onto my swimmers loses it.
standing kill-shark on
""",
        after="""\

-- 
Bjørn
""",
        expect="accepted",
    ),
    Letter(
        file="09-red-thunderbird-reply.eml", window="2.red", role="red",
        client="thunderbird-reply",
        date="2026-12-04 18:40:26 +0000", issued="2026-12-04T18:37:55Z",
        nonce="e3df929673fe6bee1d95a49f1984a329",
        message_id="<0c7d2a9e-41f6-4b83-a5d0-93e8f1b26c47@example.org>",
        subject="(Re: the report, filled in when the mail is written)",
        before="""\
Thank you for the report, I think. Green's monster is sitting right next to my ship, and \
blue's is behind it: the north-west is shut. Here is the template above, filled in.

""",
        orders="""\
# Turn 2: red's player-turn. Two monsters between my ship and 0101, one
# of them next to it: round the north coast instead, towards 1301.
sail ship1 0503 0603 0703

# Blue set that monster on me. 0408 is two hexes from his full ship:
# whatever comes up there, it comes up beside him.
sink 0408

if monster-or-shark: monster2 0303 0203   # back where it came from, and further
if monster: monster1 1106                 # mine to the mouth of green's bay
""",
        after="""\

Ruth
""",
        expect="accepted, problems: line 17 (Atlantis: Dice)",
    ),
    Letter(
        file="10-red-apple-creature.eml", window="2.red-creature", role="red", client="apple",
        date="2026-12-05 09:12:48 +0000", issued="2026-12-05T09:10:03Z",
        nonce="192d768ba12506304d4f30c16920883d",
        message_id="<5E0A93C2-7B14-4D6F-8A2E-C1F4B7D90E36@example.org>",
        subject="atl-example turn 2: red's kraken",
        before="""\
Morning,

I only thought of monsters when I wrote my orders, so here is the short
window's answer for the kraken, attached.
""",
        orders="""\
# The kraken that came up at 0408 goes for blue's ship at 0510: a kraken
# sinks a manned ship, and his has three aboard.
creature kraken1 0409 0510
""",
        after="""\

Ruth
""",
        expect="accepted",
    ),
    Letter(
        file="11-green-outlook.eml", window="2.green", role="green", client="outlook",
        date="2026-12-07 08:32:15 +0000", issued="2026-12-07T08:30:02Z",
        nonce="e265e33135b711b55cd9aec60bbe819a",
        message_id="<AM9PR04MB7A41D0E83F1B2C5A9D7E@AM9PR04MB7A41.eurprd04.prod.outlook.com>",
        subject="atl-example turn 2 green",
        before="""\
Morning all,

Ruth's kraken went for Bjørn's ship, not mine, and my boat is still waiting in my own bay:
time to get aboard. My turn 2:

""",
        orders="""\
# three aboard the boat that came up in my bay
board green4  0906
board green5  0906
board green8  0906

sink 0905                      # a second way out of the bay, away from the monster

if monster: monster1  1305     # the monster by my bay moves off
if dolphin-or-kraken: stay     # the kraken is far off, and a dolphin harms nobody
""",
        after="""\

Gareth
""",
        expect="accepted",
    ),
    Letter(
        file="12-green-gmail-creature.eml", window="2.green-creature", role="green",
        client="gmail",
        date="2026-12-07 12:48:37 +0000", issued="2026-12-07T12:46:20Z",
        nonce="cf63374701a327e0d5e29c274ce58ea1",
        message_id="<CAKq8w3wR7eN4jY1pV6cT0sK9bH3zL5mQ2aX8dF1gU7iE0oW4nPc@mail.gmail.com>",
        subject="Re: atl-example turn 2 green - the dolphin",
        before="""\
Ah, "dolphin-or-kraken" is the face with the 1, not "a dolphin or a kraken": for those it is
"if dolphin:" and "if kraken:". Lesson learnt. Since I have to answer anyway, the dolphin that
came up beside my boat goes with it:

""",
        orders="""\
creature dolphin1  0906              # with my boat, in case it needs rescuing
""",
        after="""\

G.
""",
        expect="accepted",
    ),
    Letter(
        file="13-blue-mutt-sig.eml", window="2.blue", role="blue", client="mutt",
        date="2026-12-07 19:20:03 +0100", issued="2026-12-07T18:14:40Z",
        nonce="e4b7f62ce6a0f82356f19148d2f74cef",
        message_id="<20261207182003.GD4127@fjord.example.net>",
        subject="atl-example turn 2 blue",
        before="""\
Good evening,

blue's second turn; signature attached (orders.txt.sig).

Nice kraken, Ruth. My three are swimming, so my turn is short.

""",
        orders="""\
# blue, turn 2: no ship any more. The three in the water swim for 0113,
# one hex a turn; blue1 first, two hexes while he is fresh.
swim blue1 0410 0411
swim blue2 0410
swim blue3 0410
sink 0704                 # beside red's ship: she sank mine
if kraken: kraken1 0409 0408 0308    # off north, away from my swimmers
if monster: monster2 0503            # after red's ship
if shark: stay
""",
        after="""\

-- 
Bjørn
""",
        expect="accepted, problems: line 11 (Atlantis: Swimming people)",
    ),
]


LETTERS: list[Letter] = SETUP + TURN1 + TURN2
"""Every letter of the example, in the order they were sent."""
