"""How the pages write what they show: a number of points, an amount of money, a suit, a date, a
list.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache

import babel.dates
from babel import numbers

from ..changes.edits import JOINED_LATE
from ..rules.words import N_, _
from ..web import language

SUIT_SIGNS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣", "NT": N_("NT")}


def suit_sign(trump: str) -> str:
    """A trump as the board writes it: a suit's sign, or "NT" (no trump) in the page's language.

    >>> suit_sign("H"), suit_sign("NT"), suit_sign("")
    ('♥', 'NT', '')
    """
    sign = SUIT_SIGNS.get(trump, "")
    return _(sign) if trump == "NT" else sign


def reason(text: str) -> str:
    """An adjustment's reason as shown: the one the app writes itself ("joined late") in the page's
    language, any other as the player typed it.

    >>> reason("joined late"), reason("revoke")
    ('joined late', 'revoke')
    """
    return _(JOINED_LATE) if text == JOINED_LATE else text


def points(value: Fraction | int) -> str:
    """A score as a person writes it in this page's language: whole numbers (grouped as the
    language groups them), halves as ½, other fractions with the language's decimal sign, and a
    real minus sign.

    >>> (points(Fraction(-7)), points(Fraction(5, 2)), points(Fraction(1, 2)), points(0),
    ...  points(Fraction(9, 4)))
    ('−7', '2½', '½', '0', '2.25')
    >>> points(Fraction(-2401, 2)), points(12345)
    ('−1,200½', '12,345')
    """
    value = Fraction(value)
    sign = "−" if value < 0 else ""
    value = abs(value)
    whole = value.numerator // value.denominator
    rest = value - whole
    if not rest:
        return sign + language.number(whole)
    if rest == Fraction(1, 2):
        return f"{sign}{language.number(whole) if whole else ''}½"
    return sign + numbers.format_decimal(_decimal(value), "#,##0.###", locale=language.current())


def score(value: Fraction | int) -> str:
    """A club night's score or sum of totals as its pages and sheets write it: whole, or to 2
    decimals (half to even, as the event's file rounds it), in this page's language, with a real
    minus sign.

    >>> score(Fraction(200, 3)), score(Fraction(225, 2)), score(Fraction(-3)), score(Fraction(1, 8))
    ('66.67', '112.50', '−3', '0.12')
    """
    return score_in(Fraction(value), code=language.current())


@lru_cache(maxsize=8192)
def score_in(value: Fraction, code: str) -> str:
    """``score`` in the language ``code``: a night's standings write thousands of scores, most of
    them the same few.

    >>> score_in(Fraction(3001, 2), "nl"), score_in(Fraction(-1500), "de")
    ('1.500,50', '−1.500')
    """
    if value.denominator == 1:
        return (("−" if value < 0 else "")
                + numbers.format_decimal(abs(value.numerator), locale=code))
    shown = numbers.format_decimal(_decimal(abs(round(value, 2))), "#,##0.00", locale=code)
    return ("−" if value < 0 else "") + shown


def tick(value: float) -> str:
    """A chart's axis label: the number in this page's language, with a real minus sign.

    >>> tick(-2.5), tick(1000.0), tick(0.0)
    ('−2.5', '1,000', '0')
    """
    return (("−" if value < 0 else "")
            + numbers.format_decimal(abs(value), "#,##0.###", locale=language.current()))


def _decimal(value: Fraction) -> Decimal:
    """A fraction as a decimal, exactly when its denominator divides a power of 10 (a score of the
    rules core), else to 28 digits: enough for any decimal shown."""
    return Decimal(value.numerator) / Decimal(value.denominator)


#: A currency's sign as players write it, and the ISO 4217 code Babel formats it by.
CURRENCY_SIGNS = {"€": "EUR", "$": "USD", "£": "GBP", "¥": "JPY", "₹": "INR", "₩": "KRW",
                  "₺": "TRY", "₽": "RUB", "R$": "BRL", "zł": "PLN", "Fr.": "CHF", "CHF": "CHF"}


def money(amount: Decimal, currency: str) -> str:
    """An amount with its currency, written as this page's language writes money: a code (EUR) or a
    sign Babel knows (€, $, £) where the language puts it, any other sign (kr, pts) after the
    amount; a real minus sign.

    >>> money(Decimal("1.20"), "€"), money(Decimal("0.90"), "EUR"), money(Decimal("-2.00"), "")
    ('€1.20', '€0.90', '−2.00')
    >>> money(Decimal("-3.5"), "kr"), money(Decimal("1234.5"), "$")
    ('−3.50 kr', '$1,234.50')
    """
    locale = language.current()
    code = CURRENCY_SIGNS.get(currency,
                              currency if currency.isascii() and currency.isupper() else "")
    if code in _CODES:
        text = numbers.format_currency(abs(amount), code, locale=locale)
    else:
        text = numbers.format_decimal(abs(amount), "#,##0.00", locale=locale)
        text = f"{text} {currency}" if currency else text
    return ("−" if amount < 0 else "") + text


def signed(amount: Decimal, currency: str) -> str:
    """A net amount with its sign, as the standings print it.

    >>> signed(Decimal("1.20"), "€"), signed(Decimal("-0.50"), "EUR"), signed(Decimal("0"), "")
    ('+€1.20', '−€0.50', '0.00')
    """
    return ("+" if amount > 0 else "") + money(amount, currency)


_CODES = frozenset(numbers.list_currencies())


def day(moment: date, today: date) -> str:
    """A day as a person says it, counted from ``today``.

    >>> today = date(2026, 11, 14)
    >>> [day(d, today) for d in (today, date(2026, 11, 13), date(2026, 3, 2), date(2025, 12, 31))]
    ['today', 'yesterday', 'Mon 2 Mar', 'Wed 31 Dec 2025']
    """
    if moment == today:
        return _("today")
    if moment == today - timedelta(days=1):
        return _("yesterday")
    # Weekday, day and month; then with the year.
    return written(moment, "MMMEd" if moment.year == today.year else "yMMMEd")


#: English dates as the app has always written them; other languages by Babel's skeletons.
_ENGLISH_DATES = {"MMMEd": "EEE d MMM", "yMMMEd": "EEE d MMM y", "yMMMMd": "d MMMM y",
                  "yMMMd": "dd MMM y"}


def written(moment: date | datetime, skeleton: str) -> str:
    """A date by a CLDR skeleton (``yMMMEd``: year, month, day, weekday), or a time of day (for a
    datetime: ``HH:mm``), as the page's language writes it; English outside a request.

    >>> written(date(2026, 3, 2), "yMMMEd"), written(datetime(2026, 3, 2, 9, 5), "HH:mm")
    ('Mon 2 Mar 2026', '09:05')
    """
    locale = language.current()
    if isinstance(moment, datetime):  # written in the server's time zone, as the game's times are
        return babel.dates.format_time(moment, skeleton, locale=locale)
    if locale == "en":
        return babel.dates.format_date(moment, _ENGLISH_DATES[skeleton], locale="en")
    return babel.dates.format_skeleton(skeleton, moment, locale=locale)


def played(started: datetime, last: datetime, now: datetime) -> str:
    """When a game was played, for the list of games (all three times in the same time zone).

    >>> now = datetime(2026, 11, 14, 23, 0)
    >>> played(datetime(2026, 11, 14, 20, 5), datetime(2026, 11, 14, 21, 40), now)
    'today 20:05–21:40'
    >>> played(datetime(2026, 11, 14, 21, 40), datetime(2026, 11, 14, 21, 40), now)
    'today 21:40'
    >>> played(datetime(2026, 11, 13, 21, 0), datetime(2026, 11, 14, 0, 30), now)
    'started yesterday, last played today 00:30'
    """
    today, end = now.date(), written(last, "HH:mm")
    if started.date() != last.date():
        return _("started %(first_day)s, last played %(last_day)s %(time)s",
                 first_day=day(started.date(), today), last_day=day(last.date(), today), time=end)
    begin = written(started, "HH:mm")
    if end == begin:
        return _("%(day)s %(time)s", day=day(last.date(), today), time=begin)
    return _("%(day)s %(start)s–%(end)s", day=day(last.date(), today), start=begin, end=end)


def listed(words: list[str]) -> str:
    """Names in a sentence.

    >>> listed(["Bob"]), listed(["Bob", "Cy"]), listed(["Ann", "Bob", "Cy"])
    ('Bob', 'Bob and Cy', 'Ann, Bob and Cy')
    """
    if len(words) < 2:
        return "".join(words)
    return _("%(names)s and %(last)s", names=_(", ").join(words[:-1]), last=words[-1])
