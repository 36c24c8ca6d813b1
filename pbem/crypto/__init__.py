"""Signatures, keys and sealing (DESIGN.md "Signed orders" and "Every fact has an audience").

Modules, each imported on its own (nothing is re-exported here, so importing ``pbem.crypto``
stays free of ``cryptography``):

- :mod:`pbem.crypto.canonical` -- the canonical form of signed text and its SHA-256 digest;
- :mod:`pbem.crypto.keys` -- Ed25519 key values, reading pbem and OpenSSH key files;
- :mod:`pbem.crypto.keyfiles` -- writing key files (never overwriting), the master key file;
- :mod:`pbem.crypto.envelope` -- the armored pbem envelope for orders and receipts;
- :mod:`pbem.crypto.sshsig` -- signatures made by ``ssh-keygen -Y sign`` (PROTOCOL.sshsig);
- :mod:`pbem.crypto.find` -- finding and checking the signed orders in a decoded message;
- :mod:`pbem.crypto.seal` -- AES-256-GCM sealing of hidden state, HKDF-derived keys;
- :mod:`pbem.crypto.errors` -- the exceptions, one class per cause;
- :mod:`pbem.crypto.sshwire`, :mod:`pbem.crypto.lines` -- SSH wire encoding, line splitting.

docs/signing.md describes the formats for players and referees.
"""
