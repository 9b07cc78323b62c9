"""Whether a SQLite file would sit on a network share, where SQLite cannot keep it safe.

SQLite's write-ahead log needs memory shared between the processes that use the file, which
a network file system (NFS, SMB/CIFS, sshfs…) does not give, and its locks there are not
reliable: SQLite's documentation says WAL "does not work over a network filesystem". A school
may still hand a teacher a shared folder; :func:`network_share` finds such a folder from the
computer's table of mounts (``/proc/self/mounts`` on Linux; elsewhere nothing is known, and
nothing is refused), so the store refuses it with one sentence instead of losing rows.

>>> mounts = '''/dev/sda1 / ext4 rw 0 0
... fileserver:/export/home /home nfs4 rw 0 0
... //nas/classes /mnt/classes cifs rw 0 0'''
>>> network_share(Path("/home/teacher/classes.sqlite3"), mounts)
'nfs4'
>>> network_share(Path("/mnt/classes/4a.sqlite3"), mounts)
'cifs'
>>> network_share(Path("/var/lib/dekbovinoj/classes.sqlite3"), mounts) is None
True
"""

from __future__ import annotations

import os
from pathlib import Path

from ..errors import StoreError

__all__ = ["MOUNTS", "NETWORK_FILESYSTEMS", "network_share", "refuse_share"]

NETWORK_FILESYSTEMS = frozenset(
    {"nfs", "nfs4", "cifs", "smb", "smb2", "smb3", "smbfs", "afs", "9p", "fuse.sshfs", "ncpfs"}
)
"""The kinds of file system that are a share of another computer's disk."""

MOUNTS = Path("/proc/self/mounts")
"""Linux's table of this process's mounts."""


def _unescape(field: str) -> str:
    r"""A mount point as ``/proc/self/mounts`` writes it (``\040`` for a space) as a path.

    >>> _unescape("/mnt/my\\040classes")
    '/mnt/my classes'
    """
    for code, character in (("\\040", " "), ("\\011", "\t"), ("\\012", "\n"), ("\\134", "\\")):
        field = field.replace(code, character)
    return field


def network_share(path: Path, mounts: str | None = None) -> str | None:
    """The kind of network file system ``path`` would be on (``"nfs4"``, ``"cifs"``…), or
    ``None`` for a local disk or when the computer does not say. ``mounts``: the table's text
    (this computer's, when ``None``)."""
    if mounts is None:
        try:
            mounts = MOUNTS.read_text("utf-8", errors="replace")
        except OSError:
            return None
    where = os.path.realpath(path.parent if not path.is_dir() else path)
    best, kind = "", None
    for line in mounts.splitlines():
        fields = line.split()
        if len(fields) < 3:
            continue
        point = _unescape(fields[1]).rstrip("/") or "/"
        inside = where == point or where.startswith(point.rstrip("/") + "/") or point == "/"
        if inside and len(point) >= len(best):
            best, kind = point, fields[2]
    return kind if kind in NETWORK_FILESYSTEMS else None


def refuse_share(path: Path) -> None:
    """``StoreError``, with the sentence that says what to do, if the SQLite file ``path``
    would be on a network share."""
    share = network_share(path)
    if share is not None:
        raise StoreError(
            "The class database {where} would be on a network share ({kind}), where SQLite "
            "cannot keep it safe: keep it on this computer's own disk (copy it there), or "
            "use a PostgreSQL server.",
            where=str(path),
            kind=share,
        )
