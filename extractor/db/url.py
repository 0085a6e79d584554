"""Database URLs: which database a store's URL names, and how messages may show it.

A SQLite database is a plain path, ``sqlite:///relative/path`` or ``sqlite:////absolute/path`` (``:memory:``: one
of this process only); PostgreSQL is ``postgresql://`` or ``postgres://`` with libpq's URL syntax. ``shown_url``
is the one way a URL reaches a message, a log line or a record: every secret it can carry is masked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlencode

POSTGRES_SCHEMES = ("postgresql://", "postgres://")
SQLITE_PREFIX = "sqlite:///"
MASK = "***"
# query parameters whose values are secrets (libpq's, and the token names HTTP URLs carry); ``passfile`` and
# ``sslkey`` name files whose contents are secret: the name is masked too (it says where to look), never read here
SECRET_PARAMETERS = frozenset(
    {
        "password",
        "sslpassword",
        "passfile",
        "sslkey",
        "token",
        "access_token",
        "api_key",
        "apikey",
        "key",
        "secret",
        "auth",
        "signature",
        "sig",
    }
)


@dataclass(frozen=True)
class Target:
    """What a database URL names.

    Attributes:
        kind: ``sqlite`` or ``postgresql``.
        location: the SQLite file's path (``:memory:`` for one of this process), or the PostgreSQL URL as given.
        shown: the URL as messages name it (``shown_url``).
    """

    kind: str
    location: str
    shown: str

    @property
    def memory(self) -> bool:
        """A SQLite database of this process only."""
        return self.kind == "sqlite" and self.location == ":memory:"


def parse_url(url: str) -> Target | None:
    """The database a store's URL names, or None for a scheme that is neither SQLite nor PostgreSQL (the store
    says what it expected: its own option's name)."""
    if url.startswith(POSTGRES_SCHEMES):
        return Target("postgresql", url, shown_url(url))
    if url.startswith(SQLITE_PREFIX) or "://" not in url:
        path = url.removeprefix(SQLITE_PREFIX)
        return Target("sqlite", path, path)
    return None


def shown_url(url: str) -> str:
    """``url`` with every secret masked: the userinfo's password (``user:***@``) and the value of each secret query
    parameter (``?password=***``, ``sslpassword``, ``passfile``, tokens), whatever their case."""
    shown = re.sub(r"(://[^:/@?#]*):[^@/?#]*@", rf"\1:{MASK}@", url)
    base, mark, query = shown.partition("?")
    if not mark:
        return shown
    query, hash_mark, fragment = query.partition("#")
    pairs = [
        (name, MASK if name.lower() in SECRET_PARAMETERS else value)
        for name, value in parse_qsl(query, keep_blank_values=True)
    ]
    return f"{base}?{urlencode(pairs, safe='*/:,')}{hash_mark}{fragment}"


def secrets_of(url: str) -> list[str]:
    """The secret values a URL carries (its password, its secret parameters' values), longest first."""
    found = [m.group(1) for m in re.finditer(r"://[^:/@?#]*:([^@/?#]+)@", url)]
    _, _, query = url.partition("?")
    pairs = parse_qsl(query.partition("#")[0], keep_blank_values=True)
    found += [value for name, value in pairs if name.lower() in SECRET_PARAMETERS]
    return sorted({v for v in found if v}, key=len, reverse=True)


def first_line(exc: BaseException, *, url: str = "") -> str:
    """An exception's message, its first line only (psycopg's carry a server's context below it), with any secret
    of ``url`` that a driver repeated in it masked."""
    line = (str(exc).strip().splitlines() or [""])[0]
    for secret in secrets_of(url):
        line = line.replace(secret, MASK)
    return line


__all__ = ["POSTGRES_SCHEMES", "SECRET_PARAMETERS", "Target", "first_line", "parse_url", "secrets_of", "shown_url"]
