"""Runaway guards: stop generation that has gone wrong even when the stop set is incomplete.

Three guards watch the decoded stream, token by token (``runner.Monitor``); each is on by default and each can be
switched off in ``GuardSettings``:

``end_marker``
    The text contains a known end marker (``<|im_end|>``, ``<|endoftext|>``, ``</s>``, ``<end_of_turn>``,
    ``<|eot_id|>``, ..., or a new turn such as ``<|im_start|>``): the model ended its turn with a token the stop set
    lacks. Stop; the marker and what follows are cut from the answer.
``json_closed``
    The first top-level JSON value is complete (it parses). After it only whitespace (and a closing code fence) may
    follow, for at most ``json_grace_tokens`` tokens; anything else stops at once. The answer is kept up to the close.
``loop``
    Repetition that no real answer contains: the same n-gram of up to ``loop_max_period`` tokens repeated
    ``loop_repeats`` times in a row, or the same line ``loop_repeats`` times in a row; a run of
    ``whitespace_run_tokens`` whitespace-only tokens; a JSON number longer than ``number_max_chars`` characters.
    Repetition is only looked for where it cannot be legitimate: before the JSON value starts, after it closed, and
    inside one string value (with a higher bar, ``string_loop_min_tokens``). Inside the JSON structure an invoice may
    list the same line item forty times, so the structure itself is never judged; a structural loop there ends at
    ``max_tokens`` and is reported as ``truncated``.

Per token, every guard does work proportional to the new text only (plus a constant: ``loop_max_period``
comparisons), never to the whole text so far. Pure Python, no mlx.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass

from extractor.runners.base import GuardHit, Monitor
from extractor.runners.stopping import END_TOKEN_TEXTS

GUARD_NAMES = ("end_marker", "json_closed", "loop")
# A new turn starting is as final as an end marker: nothing after it belongs to the answer.
TURN_START_TEXTS = ("<|im_start|>", "<start_of_turn>", "<|start_header_id|>")
DEFAULT_MARKERS = tuple(sorted(set(END_TOKEN_TEXTS) | set(TURN_START_TEXTS)))
_NUMBER_CHARS = frozenset("0123456789.eE+-")


class JsonCloseTracker:
    """Incremental bracket matcher: tells when the first top-level JSON object/array has closed.

    Strings (with escapes) are tracked so braces inside them do not count. Feed text chunks in order.
    """

    def __init__(self) -> None:
        self.depth = 0
        self.in_string = False
        self.escape = False
        self.started = False
        self.closed_at: int | None = None  # character offset just after the closing bracket
        self._seen = 0

    @property
    def closed(self) -> bool:
        """True once the first top-level value has closed."""
        return self.closed_at is not None

    def feed(self, chunk: str) -> bool:
        """Consume more text.

        Args:
            chunk: the next piece of decoded text.

        Returns:
            True if the value is closed (now or before).
        """
        for ch in chunk:
            self._seen += 1
            if self.closed_at is not None:
                continue
            self._step(ch)
        return self.closed

    def _step(self, ch: str) -> None:
        if self.in_string:
            if self.escape:
                self.escape = False
            elif ch == "\\":
                self.escape = True
            elif ch == '"':
                self.in_string = False
        elif ch == '"' and self.started:
            self.in_string = True
        elif ch in "{[":
            self.started = True
            self.depth += 1
        elif ch in "}]" and self.started:
            self.depth -= 1
            if self.depth == 0:
                self.closed_at = self._seen


@dataclass(frozen=True)
class GuardSettings:
    """Which runaway guards run and their thresholds (defaults documented in the module docstring).

    Attributes:
        end_marker: stop on an end marker appearing as text (default on).
        json_closed: stop shortly after the top-level JSON value closed (default on).
        loop: stop on repetition that cannot be part of a real answer (default on).
        json_grace_tokens: tokens allowed after the JSON value closed, whitespace / a closing fence only (8).
        loop_repeats: times an n-gram or a line must occur in a row to count as a loop (4).
        loop_max_period: longest repeating unit looked for, in tokens (64).
        loop_min_tokens: least tokens a loop must span before or after the JSON value (12).
        string_loop_min_tokens: least tokens a loop must span inside one JSON string value (64).
        whitespace_run_tokens: whitespace-only tokens in a row that count as a loop, anywhere (16).
        number_max_chars: longest JSON number accepted; a longer one is a digit loop (48).
    """

    end_marker: bool = True
    json_closed: bool = True
    loop: bool = True
    json_grace_tokens: int = 8
    loop_repeats: int = 4
    loop_max_period: int = 64
    loop_min_tokens: int = 12
    string_loop_min_tokens: int = 64
    whitespace_run_tokens: int = 16
    number_max_chars: int = 48

    @classmethod
    def without(cls, names: Iterable[str]) -> GuardSettings:
        """Return the default settings with the named guards switched off.

        Args:
            names: guard names (``end_marker``, ``json_closed``, ``loop``); ``all`` switches every guard off.

        Returns:
            The settings.

        Raises:
            ValueError: an unknown guard name.
        """
        names = set(names)
        if "all" in names:
            names = set(GUARD_NAMES) | (names - {"all"})
        unknown = sorted(names - set(GUARD_NAMES))
        if unknown:
            raise ValueError(f"unknown guard(s) {', '.join(unknown)}; known: {', '.join(GUARD_NAMES)}, all")
        return cls(**{name: False for name in names})

    @property
    def active(self) -> tuple[str, ...]:
        """The names of the guards that are on, in the order they are checked."""
        return tuple(name for name in GUARD_NAMES if getattr(self, name))

    def factory(self, *, stop_texts: Sequence[str] = ()) -> Callable[[], Sequence[Monitor]] | None:
        """Return a monitor factory for ``GenerationRequest.monitor_factory`` (None when every guard is off).

        Args:
            stop_texts: the end-marker strings of the resolved stop set (``StopSet.texts``); the built-in list of
                known end markers is always added.

        Returns:
            A callable building one fresh GuardMonitor per generation, or None.
        """
        if not self.active:
            return None
        markers = tuple(sorted(set(stop_texts) | set(DEFAULT_MARKERS)))
        return lambda: [GuardMonitor(self, markers=markers)]

    def report(self, *, fired: str | None) -> dict:
        """Return the record's view of the guards: ``{"active": [...], "fired": name | None, "thresholds": {...}}``.

        Args:
            fired: the guard that stopped generation, if any.

        Returns:
            The JSON-ready dict.
        """
        thresholds = {k: v for k, v in asdict(self).items() if k not in GUARD_NAMES}
        return {"active": list(self.active), "fired": fired, "thresholds": thresholds}


class ValueScanner:
    """Where the stream stands relative to the first complete JSON value: before it, in it, in a string, after it.

    Wraps ``JsonCloseTracker``. A bracketed span that closes but does not parse (``[see below]`` in prose)
    is not the answer: scanning restarts after its opening bracket, as ``parse.parse_answer`` would.
    """

    def __init__(self) -> None:
        self._tracker = _CountingTracker()
        self._base = 0  # text offset the current tracker started at
        self.end = 0  # characters consumed
        self.start_at: int | None = None  # offset of the answer's opening bracket
        self.closed_at: int | None = None  # offset just after its closing bracket (set once it parses)
        self._strings_before = 0  # strings counted by trackers that were abandoned

    @property
    def closed(self) -> bool:
        """True once a complete, parseable top-level JSON value has been seen."""
        return self.closed_at is not None

    def region(self) -> object:
        """Return a key for the region at the current position.

        Returns:
            ``"pre"`` before the value, ``"post"`` after it, ``("str", n)`` inside the n-th string of the value, or
            None inside the value's structure (outside strings).
        """
        if self.closed_at is not None:
            return "post"
        if not self._tracker.started:
            return "pre"
        if self._tracker.in_string:
            return ("str", self._strings_before + self._tracker.strings)
        return None

    def in_number(self) -> bool:
        """True when inside the value's structure (where numbers live), outside strings."""
        return self.closed_at is None and self._tracker.started and not self._tracker.in_string

    def feed(self, text: str) -> None:
        """Consume ``text[self.end:]`` (the caller passes the whole text so far).

        Args:
            text: the whole decoded text so far.
        """
        while self.closed_at is None and self.end < len(text):
            chunk = text[self.end :]
            tracker = self._tracker
            tracker.feed(chunk)
            if tracker.closed_at is None:  # not closed yet
                self.end = len(text)
                if tracker.started_at is not None and self.start_at is None:  # started
                    self.start_at = self._base + tracker.started_at
                return
            if tracker.started_at is None:
                raise RuntimeError("a JSON value closed that never started")  # _step sets started_at first
            start = self._base + tracker.started_at
            close = self._base + tracker.closed_at
            try:
                json.loads(text[start:close])
            except ValueError:
                # not the answer: rescan from just after its opening bracket
                self._strings_before += self._tracker.strings
                self._tracker = _CountingTracker()
                self._base = self.end = start + 1
                self.start_at = None
                continue
            self.start_at, self.closed_at = start, close
        self.end = len(text)


class _CountingTracker(JsonCloseTracker):
    """JsonCloseTracker that also counts strings opened and remembers where the value started."""

    def __init__(self) -> None:
        super().__init__()
        self.strings = 0
        self.started_at: int | None = None

    def _step(self, ch: str) -> None:
        was_in_string, was_started = self.in_string, self.started
        super()._step(ch)
        if self.in_string and not was_in_string:
            self.strings += 1
        if self.started and not was_started:
            self.started_at = self._seen - 1

    def feed(self, chunk: str) -> bool:
        """Consume more text, stopping at the close (so the caller knows where it happened).

        Args:
            chunk: the next piece of text.

        Returns:
            True if the value is closed.
        """
        for ch in chunk:
            if self.closed_at is not None:
                break
            self._seen += 1
            self._step(ch)
        return self.closed


@dataclass(frozen=True)
class Step:
    """One fed token as the guards see it.

    Attributes:
        token_id: the token.
        start: offset of the token's text in the whole text.
        end: offset just after it (the whole text's length).
        region_before / region_after: ``ValueScanner.region()`` before and after the token.
    """

    token_id: int
    start: int
    end: int
    region_before: object
    region_after: object


class EndMarkerGuard:
    """Stop when a known end marker appears in the text; keep the text before it."""

    name = "end_marker"

    def __init__(self, markers: Sequence[str]) -> None:
        self.markers = tuple(m for m in markers if m)
        self._overlap = max((len(m) for m in self.markers), default=1) - 1

    def check(self, step: Step, text: str, scanner: ValueScanner) -> GuardHit | None:
        """Look for a marker in the new text (and the few characters before it a marker could straddle).

        ``step`` is the token just fed, ``text`` the whole text so far. Returns a hit keeping the text before
        the marker, or None.
        """
        lo = max(0, step.start - self._overlap)
        window = text[lo : step.end]
        found = [i for i in (window.find(m) for m in self.markers) if i >= 0]
        if not found:
            return None
        return GuardHit(self.name, keep_chars=lo + min(found))


class JsonClosedGuard:
    """After the JSON value closed, allow only whitespace (and a closing fence) for a few tokens."""

    name = "json_closed"

    def __init__(self, grace_tokens: int) -> None:
        self.grace_tokens = grace_tokens
        self._after = 0
        self._checked_to = 0

    def check(self, step: Step, text: str, scanner: ValueScanner) -> GuardHit | None:
        """Stop on anything but whitespace after the close, or when the grace tokens are used up.

        ``step`` is the token just fed, ``text`` the whole text so far. Returns a hit keeping the text up to the
        close, or None.
        """
        close = scanner.closed_at
        if close is None:  # not closed yet
            return None
        # from the close on (a rescan can find the close a few tokens back), each character is looked at once
        tail = text[max(self._checked_to, close) : step.end]
        self._checked_to = step.end
        if tail.strip().strip("`").strip():
            return GuardHit(self.name, keep_chars=close)
        if step.start >= close:
            self._after += 1
            if self._after >= self.grace_tokens:
                return GuardHit(self.name, keep_chars=close)
        return None


class LoopGuard:
    """Stop on repetition no real answer contains (see the module docstring for where it looks)."""

    name = "loop"

    def __init__(self, settings: GuardSettings) -> None:
        self.s = settings
        self._tokens: deque[int] = deque(maxlen=settings.loop_max_period)
        longest = max(
            settings.loop_max_period * settings.loop_repeats, settings.loop_min_tokens, settings.string_loop_min_tokens
        )
        self._starts: deque[int] = deque(maxlen=longest + 1)  # token start offsets, to cut after one unit
        self._runs = [0] * (settings.loop_max_period + 1)  # runs[p]: tokens in a row equal to the one p before
        self._region: object = "pre"
        self._blank_run = 0
        self._blank_from = 0
        self._line_start = 0
        self._last_line: str | None = None
        self._line_count = 0
        self._first_line_end = 0
        self._number_len = 0

    def check(self, step: Step, text: str, scanner: ValueScanner) -> GuardHit | None:
        """Run the whitespace, number, line and n-gram checks on the new token.

        ``step`` is the token just fed, ``text`` the whole text so far. Returns a hit (after the value closed it
        keeps the text up to the close; elsewhere one copy of the repeating unit, or the text before a
        whitespace run), or None.
        """
        new = text[step.start : step.end]
        return (
            self._whitespace(step, new)
            or self._number(new, scanner)
            or self._lines(step, text, scanner)
            or self._ngrams(step, scanner)
        )

    def _whitespace(self, step: Step, new: str) -> GuardHit | None:
        if not new:
            return None
        if new.strip():
            self._blank_run = 0
            return None
        if self._blank_run == 0:
            self._blank_from = step.start
        self._blank_run += 1
        if self._blank_run >= self.s.whitespace_run_tokens:
            return GuardHit(self.name, keep_chars=self._blank_from)
        return None

    def _number(self, new: str, scanner: ValueScanner) -> GuardHit | None:
        if not scanner.in_number():
            self._number_len = 0
            return None
        for ch in new:  # only the structure's characters matter here; strings reset the count
            self._number_len = self._number_len + 1 if ch in _NUMBER_CHARS else 0
        if self._number_len > self.s.number_max_chars:
            return GuardHit(self.name)
        return None

    def _lines(self, step: Step, text: str, scanner: ValueScanner) -> GuardHit | None:
        pos = text.find("\n", step.start, step.end)
        while pos >= 0:
            outside = (
                scanner.start_at is None
                or pos < scanner.start_at
                or (scanner.closed_at is not None and self._line_start >= scanner.closed_at)
            )
            line = text[self._line_start : pos].strip() if outside else ""  # lines inside the value never count
            if not line:
                self._last_line, self._line_count = None, 0
            elif line == self._last_line:
                self._line_count += 1
                if self._line_count >= self.s.loop_repeats:
                    return GuardHit(self.name, keep_chars=self._keep(scanner, self._first_line_end))
            else:
                self._last_line, self._line_count, self._first_line_end = line, 1, pos + 1
            self._line_start = pos + 1
            pos = text.find("\n", pos + 1, step.end)
        return None

    def _ngrams(self, step: Step, scanner: ValueScanner) -> GuardHit | None:
        region = step.region_after
        if region is None or region != step.region_before or region != self._region:
            # structure, or a region boundary inside this token: repetition only counts within one region
            self._tokens.clear()
            self._starts.clear()
            self._runs = [0] * len(self._runs)
            self._region = region
            if region is None or region != step.region_before:
                return None
        tokens, runs, x = self._tokens, self._runs, step.token_id
        min_tokens = self.s.string_loop_min_tokens if isinstance(region, tuple) else self.s.loop_min_tokens
        hit_period = 0
        for p in range(1, len(tokens) + 1):
            if tokens[-p] == x:
                runs[p] += 1
                span = runs[p] + p
                if not hit_period and span >= p * self.s.loop_repeats and span >= min_tokens:
                    hit_period = p
            else:
                runs[p] = 0
        tokens.append(x)
        self._starts.append(step.start)
        if hit_period:
            # keep one copy of the repeating unit: cut where its second occurrence starts
            span = runs[hit_period] + hit_period
            unit_end = self._starts[-span + hit_period] if span <= len(self._starts) else None
            return GuardHit(self.name, keep_chars=self._keep(scanner, unit_end))
        return None

    @staticmethod
    def _keep(scanner: ValueScanner, fallback: int | None) -> int | None:
        # after the value closed nothing that follows belongs to the answer; elsewhere keep one copy of the unit
        return scanner.closed_at if scanner.closed else fallback


class GuardMonitor:
    """The ``runner.Monitor`` that runs the enabled guards over one generation.

    Attributes:
        fired: the name of the guard that stopped generation, once one has.
    """

    def __init__(self, settings: GuardSettings, *, markers: Sequence[str] = DEFAULT_MARKERS) -> None:
        """Set up fresh guard state for one generation.

        Args:
            settings: which guards run and their thresholds.
            markers: end-marker strings for the end_marker guard.
        """
        self.settings = settings
        self.scanner = ValueScanner()
        self.guards: list[EndMarkerGuard | JsonClosedGuard | LoopGuard] = []
        if settings.end_marker:
            self.guards.append(EndMarkerGuard(markers))
        if settings.json_closed:
            self.guards.append(JsonClosedGuard(settings.json_grace_tokens))
        if settings.loop:
            self.guards.append(LoopGuard(settings))
        self.fired: str | None = None
        self._seen = 0

    def feed(self, token_id: int, text: str) -> GuardHit | None:
        """Look at the newest token.

        Args:
            token_id: the token just generated (not a stop-set token: those end generation before monitors run).
            text: the whole decoded text so far, this token included.

        Returns:
            A GuardHit to stop, or None to go on.
        """
        before = self.scanner.region()
        self.scanner.feed(text)
        step = Step(
            token_id=token_id, start=self._seen, end=len(text), region_before=before, region_after=self.scanner.region()
        )
        self._seen = len(text)
        for guard in self.guards:
            hit = guard.check(step, text, self.scanner)
            if hit is not None:
                self.fired = hit.guard
                return hit
        return None


def run_guards(
    pieces: Iterable[tuple[int, str]],
    settings: GuardSettings = GuardSettings(),
    *,
    markers: Sequence[str] = DEFAULT_MARKERS,
) -> tuple[GuardHit | None, int, str]:
    """Feed a token stream through fresh guards, as the runner does (for tests and benches; no model).

    Args:
        pieces: ``(token_id, decoded piece)`` pairs in order.
        settings: guard settings.
        markers: end-marker strings.

    Returns:
        ``(hit or None, tokens consumed, kept text)``; the kept text is cut at ``hit.keep_chars`` when set.
    """
    monitor = GuardMonitor(settings, markers=markers)
    text, n = "", 0
    for token_id, piece in pieces:
        text += piece
        n += 1
        hit = monitor.feed(token_id, text)
        if hit is not None:
            return hit, n, text if hit.keep_chars is None else text[: hit.keep_chars]
    return None, n, text
