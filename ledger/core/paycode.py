"""Payment codes: each player's way to be paid (a *pay id*) and the EMVCo payload one
payment's QR code carries.

A pay id is a scheme and an id:

- ``fps`` — Hong Kong's Faster Payment System: an FPS id (7 to 9 digits, as HKICL
  issues them), a Hong Kong mobile number (+852 and 8 digits) or an e-mail address;
- ``paynow`` — Singapore's PayNow: a Singapore mobile number (+65 and 8 digits
  starting 8 or 9) or a UEN (Unique Entity Number);
- ``promptpay`` — Thailand's PromptPay: a Thai mobile number (+66 or 0, then 9
  digits) or a 13-digit national id (its last digit a check digit);
- ``text`` — any other receive code, as the person's own banking or wallet app gives
  it (WeChat Pay, Alipay, LINE Pay, DuitNow, TWQR…): shown as it is, never parsed.

The first three are read by one QR code each, a *merchant-presented* payload of the
EMV QR Code Specification for Payment Systems: Merchant-Presented Mode (EMVCo,
version 1.1): data objects of a two-digit tag, a two-digit length (the number of
characters) and the value, ``00`` (payload format indicator, "01") first and ``63``
(the CRC) last — EMVCo fixes only those two places.  Between them, in the order of
their tags: ``01`` point of initiation ("12": dynamic, the amount given), the
scheme's merchant account template, ``52`` merchant category ("0000"), ``53`` the
currency (ISO 4217 numeric), ``54`` the amount, ``58`` the country, ``59`` the
merchant name (ASCII, at most 25 characters: the payee's name if it is ASCII, else
"NA"), ``60`` the city, optionally ``64`` the Merchant Information—Language Template
(the name in its own script), and ``63`` the CRC-16/CCITT-FALSE (polynomial 0x1021,
initial value 0xFFFF) of the payload's UTF-8 bytes up to and including "6304", as four
upper-case hex digits.  The account templates:

- FPS (HKMA, Common QR Code Specification for Retail Payments in Hong Kong): tag 26,
  ``00`` "hk.com.hkicl", then ``02`` the FPS id, or ``03`` the mobile number written
  "+852-XXXXXXXX", or ``04`` the e-mail (``01``, the participant's bank code, is
  optional with 03 and 04 and left out: the payer's bank looks the proxy up);
- PayNow (The Association of Banks in Singapore, PayNow QR / SGQR): tag 26, ``00``
  "SG.PAYNOW", ``01`` the proxy type ("0" mobile, "2" UEN), ``02`` the proxy
  (mobile written "+65XXXXXXXX"), ``03`` "0" (the amount may not be edited);
- PromptPay (Bank of Thailand, Thai QR Code Standard): tag 29, ``00``
  "A000000677010111", then ``01`` the mobile number written 0066 and its 9 digits, or
  ``02`` the national id.

Everything here is a pure function of its arguments.
"""

from __future__ import annotations

import re
import unicodedata
from decimal import Decimal
from typing import NamedTuple

from ledger.core.errors import InputError
from ledger.core.i18n import N_, _

SCHEMES = ("fps", "paynow", "promptpay", "text")
EMV_SCHEMES = ("fps", "paynow", "promptpay")
SCHEME_NAMES = {"fps": N_("FPS (Hong Kong)"), "paynow": N_("PayNow (Singapore)"),
                "promptpay": N_("PromptPay (Thailand)"), "text": N_("a receive code, as text")}
CURRENCIES = {"fps": ("HKD", "CNY"), "paynow": ("SGD",), "promptpay": ("THB",)}
"""The currencies each scheme's payments are made in."""
NUMERIC = {"HKD": "344", "CNY": "156", "SGD": "702", "THB": "764"}
"""ISO 4217 numeric codes of the schemes' currencies."""
COUNTRY = {"fps": "HK", "paynow": "SG", "promptpay": "TH"}
CITY = {"fps": "HK", "paynow": "Singapore", "promptpay": "Bangkok"}

TEMPLATE = {"fps": "26", "paynow": "26", "promptpay": "29"}
GUID = {"fps": "hk.com.hkicl", "paynow": "SG.PAYNOW", "promptpay": "A000000677010111"}
FPS_TAGS = {"02": "fps_id", "03": "mobile", "04": "email"}
PAYNOW_TYPES = {"0": "mobile", "2": "uen"}
PROMPTPAY_TAGS = {"01": "mobile", "02": "national_id"}

NAME_MAX = 25
TEXT_MAX = 300  # UTF-8 bytes: a QR code of 300 is 69 modules, 73 columns with its border
_SEPARATORS = re.compile(r"[\s\-().]")
_EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")
# UEN shapes (ACRA): nnnnnnnnX (businesses), yyyynnnnnX (local companies),
# TyyPQnnnnX (other entities: T, S or R, the year, the entity type, four digits).
_UEN = re.compile(r"\d{8}[A-Z]|\d{9}[A-Z]|[TSR]\d{2}[A-Z]{2}\d{4}[A-Z]")


class PayId(NamedTuple):
    """One way to be paid: ``scheme``, the ``kind`` of id (``fps_id``, ``mobile``,
    ``email``, ``uen``, ``national_id`` or ``text``) and the id in its one written
    form (``+85291234567``, ``+6591234567``, ``+66812345678``, digits only for ids)."""

    scheme: str
    kind: str
    value: str


class PayCode(NamedTuple):
    """One payment's code: the scheme and the payload its QR code carries (for
    ``text``, the receive code as given; the amount is written beside it)."""

    scheme: str
    payload: str

    def to_dict(self) -> dict[str, str]:
        return {"scheme": self.scheme, "payload": self.payload}


class Decoded(NamedTuple):
    """What a payload says (:func:`parse`): every top-level data object by tag, in
    order, the scheme and proxy it names, and the transaction's fields."""

    fields: dict[str, str]
    pay_id: PayId | None  # None: no account template this module knows
    currency: str | None  # ISO 4217 alphabetic when known, else the numeric code
    amount: Decimal | None
    country: str | None
    name: str | None
    city: str | None
    local_name: str | None  # 64's 01, the name in its own script


def _bad(scheme: str, typed: str, allowed: str) -> InputError:
    return InputError(_("{id} is not a valid {scheme} id; {scheme} takes {allowed}").format(
        id=repr(typed), scheme=scheme, allowed=allowed))


def check_pay_id(scheme: str, typed: str) -> PayId:
    """The pay id ``typed`` for ``scheme``, in its written form; a clear error when it is
    not one (or the scheme is unknown)."""
    scheme = scheme.strip().lower()
    if scheme not in SCHEMES:
        raise InputError(_("unknown payment scheme {scheme}; choose from {schemes}").format(
            scheme=repr(scheme), schemes=", ".join(SCHEMES)))
    text = unicodedata.normalize("NFC", typed).strip()
    if not text:
        raise InputError(_("a pay id cannot be empty"))
    if scheme == "text":
        if len(text.encode("utf-8")) > TEXT_MAX or any(
                unicodedata.category(c)[0] == "C" for c in text):
            raise InputError(_("a receive code is one line of at most {n} characters (a "
                               "letter of another script than Latin counts as 2 or 3)")
                             .format(n=TEXT_MAX))
        return PayId("text", "text", text)
    compact = _SEPARATORS.sub("", text)
    if scheme == "fps":
        return _fps(text, compact)
    if scheme == "paynow":
        return _paynow(text, compact)
    return _promptpay(text, compact)


def _fps(text: str, compact: str) -> PayId:
    if "@" in text:
        if _EMAIL.fullmatch(text) and text.isascii() and len(text) <= 64:
            return PayId("fps", "email", text)
    elif compact.startswith("+852"):
        digits = compact[4:]
        if len(digits) == 8 and digits.isdigit() and digits.isascii():
            return PayId("fps", "mobile", "+852" + digits)
    elif compact.isascii() and compact.isdigit() and 7 <= len(compact) <= 9:
        return PayId("fps", "fps_id", compact)
    raise _bad("fps", text, _("an FPS id (7 to 9 digits), a Hong Kong mobile number "
                              "(+852 and 8 digits) or an e-mail address"))


def _paynow(text: str, compact: str) -> PayId:
    digits = compact[3:] if compact.startswith("+65") else compact
    if len(digits) == 8 and digits.isascii() and digits.isdigit() and digits[0] in "89":
        return PayId("paynow", "mobile", "+65" + digits)
    if _UEN.fullmatch(compact.upper()) and compact.isascii():
        return PayId("paynow", "uen", compact.upper())
    raise _bad("paynow", text, _("a Singapore mobile number (+65 and 8 digits starting 8 or 9) "
                                 "or a UEN (like 53312345A or 201912345K)"))


def thai_id_ok(digits: str) -> bool:
    """Whether a 13-digit Thai national id's last digit is its check digit: 11 less the
    sum of the first twelve digits weighted 13 down to 2, modulo 11, then modulo 10."""
    if len(digits) != 13 or not (digits.isascii() and digits.isdigit()):
        return False
    total = sum(int(d) * (13 - i) for i, d in enumerate(digits[:12]))
    return (11 - total % 11) % 10 == int(digits[12])


def _promptpay(text: str, compact: str) -> PayId:
    if compact.isascii():
        if compact.startswith("+66"):
            digits = compact[3:]
        elif compact.startswith("0") and len(compact) == 10:
            digits = compact[1:]
        else:
            digits = ""
        if len(digits) == 9 and digits.isdigit() and digits[0] in "689":
            return PayId("promptpay", "mobile", "+66" + digits)
        if len(compact) == 13 and compact.isdigit():
            if thai_id_ok(compact):
                return PayId("promptpay", "national_id", compact)
            raise InputError(_("{id} is not a Thai national id: its last digit is not its "
                               "check digit").format(id=repr(text)))
    raise _bad("promptpay", text, _("a Thai mobile number (+66 or 0, then 9 digits starting "
                                    "6, 8 or 9) or a 13-digit national id"))


def fits(scheme: str, currency: str | None) -> bool:
    """Whether payments in ``currency`` can be made by ``scheme``'s QR code."""
    return currency is not None and currency.upper() in CURRENCIES.get(scheme, ())


# --- the payload ------------------------------------------------------------------


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE: polynomial 0x1021, initial value 0xFFFF, no reflection, no
    final XOR (``crc16(b"123456789") == 0x29B1``), as EMVCo's section on the CRC says."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _bit in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
            crc &= 0xFFFF
    return crc


def tlv(tag: str, value: str) -> str:
    """One data object: tag, length (two digits, the number of characters), value."""
    if not 0 < len(value) <= 99:
        raise InputError(_("data object {tag} must hold 1 to 99 characters").format(tag=tag))
    return f"{tag}{len(value):02d}{value}"


def with_crc(body: str) -> str:
    """``body`` (ending just before tag 63) with its CRC object appended."""
    head = body + "6304"
    return head + f"{crc16(head.encode('utf-8')):04X}"


def merchant_name(name: str) -> str:
    """Tag 59: ``name`` if it is printable ASCII (cut to 25 characters), else "NA"."""
    cleaned = " ".join(name.split())
    if cleaned and cleaned.isascii() and cleaned.isprintable():
        return cleaned[:NAME_MAX]
    return "NA"


def amount_text(amount: Decimal) -> str:
    """Tag 54: the amount in plain digits with "." as the decimal mark (at most 13)."""
    if not amount.is_finite() or amount <= 0:
        raise InputError(_("a payment code needs an amount above 0"))
    text = f"{amount:f}"
    if len(text) > 13:
        raise InputError(_("{amount} is too large for a payment code").format(amount=text))
    return text


def account_template(pay_id: PayId) -> str:
    """The scheme's merchant account information template (tag 26 or 29)."""
    scheme, kind, value = pay_id
    inner = tlv("00", GUID[scheme])
    if scheme == "fps":
        tag = {v: k for k, v in FPS_TAGS.items()}[kind]
        inner += tlv(tag, "+852-" + value[4:] if kind == "mobile" else value)
    elif scheme == "paynow":
        proxy_type = {v: k for k, v in PAYNOW_TYPES.items()}[kind]
        inner += tlv("01", proxy_type) + tlv("02", value) + tlv("03", "0")
    else:
        tag = {v: k for k, v in PROMPTPAY_TAGS.items()}[kind]
        inner += tlv(tag, "0066" + value[3:] if kind == "mobile" else value)
    return tlv(TEMPLATE[scheme], inner)


def build(pay_id: PayId, amount: Decimal, currency: str, payee: str,
          *, local_name: bool = False, city: str | None = None) -> str:
    """The EMVCo merchant-presented payload for paying ``amount`` ``currency`` to
    ``payee`` by ``pay_id`` (a dynamic code: the amount is in it).  ``local_name``:
    also carry a name that is not ASCII in tag 64 (language "ZH")."""
    scheme = pay_id.scheme
    if scheme not in EMV_SCHEMES:
        raise InputError(_("{scheme} has no payment code of its own").format(scheme=scheme))
    if not fits(scheme, currency):
        raise InputError(_("{scheme} pays in {allowed}, not {currency}").format(
            scheme=scheme, allowed=" or ".join(CURRENCIES[scheme]), currency=currency))
    name = merchant_name(payee)
    body = (tlv("00", "01") + tlv("01", "12") + account_template(pay_id) + tlv("52", "0000")
            + tlv("53", NUMERIC[currency.upper()]) + tlv("54", amount_text(amount))
            + tlv("58", COUNTRY[scheme]) + tlv("59", name) + tlv("60", city or CITY[scheme]))
    own = unicodedata.normalize("NFC", " ".join(payee.split()))
    if local_name and name == "NA" and own and own.isprintable():
        body += tlv("64", tlv("00", "ZH") + tlv("01", own[:NAME_MAX]))
    return with_crc(body)


def pay_code(pay_id: PayId, amount: Decimal, currency: str, payee: str) -> PayCode | None:
    """The code for paying ``amount`` to ``payee`` by ``pay_id`` (None when the scheme
    does not pay in ``currency`` or nothing is left to pay).  A ``text`` id is its own
    code, in any currency."""
    if amount <= 0:
        return None
    if pay_id.scheme == "text":
        return PayCode("text", pay_id.value)
    if not fits(pay_id.scheme, currency):
        return None
    return PayCode(pay_id.scheme, build(pay_id, amount, currency, payee))


def choose(pay_ids: list[PayId], currency: str) -> PayId | None:
    """Of one payee's pay ids, the one to be paid by in ``currency``: a scheme whose QR
    code pays in it, else a ``text`` receive code, else none."""
    for p in pay_ids:
        if p.scheme in EMV_SCHEMES and fits(p.scheme, currency):
            return p
    return next((p for p in pay_ids if p.scheme == "text"), None)


# --- reading a payload ----------------------------------------------------------------


def objects(text: str) -> dict[str, str]:
    """The data objects of ``text`` by tag, in order (an error for a malformed one)."""
    out: dict[str, str] = {}
    i = 0
    while i < len(text):
        head = text[i:i + 4]
        if len(head) < 4 or not (head.isascii() and head.isdigit()):
            raise InputError(_("not an EMV payment code: no tag and length at {at}").format(
                at=i))
        tag, length = head[:2], int(head[2:])
        value = text[i + 4:i + 4 + length]
        if length == 0 or len(value) < length:
            raise InputError(_("not an EMV payment code: data object {tag} is cut short")
                             .format(tag=tag))
        if tag in out:
            raise InputError(_("not an EMV payment code: data object {tag} appears twice")
                             .format(tag=tag))
        out[tag] = value
        i += 4 + length
    return out


def parse(payload: str) -> Decoded:
    """Read a merchant-presented payload: its data objects, checked (00 "01" first, 63
    last and right for the rest), and the scheme, proxy and transaction they carry."""
    fields = objects(payload)
    tags = list(fields)
    if not tags or tags[0] != "00" or fields["00"] != "01":
        raise InputError(_("not an EMV payment code: it must begin with 000201"))
    if tags[-1] != "63" or len(fields["63"]) != 4:
        raise InputError(_("not an EMV payment code: its CRC (63) must come last"))
    expected = f"{crc16(payload[:-4].encode('utf-8')):04X}"
    if fields["63"].upper() != expected:
        raise InputError(_("the payment code's CRC is {found}, not {expected}: it was "
                           "changed or cut").format(found=fields["63"], expected=expected))
    numeric = fields.get("53")
    by_numeric = {v: k for k, v in NUMERIC.items()}
    amount = Decimal(fields["54"]) if "54" in fields else None
    local = objects(fields["64"]).get("01") if "64" in fields else None
    return Decoded(fields, _proxy(fields), by_numeric.get(numeric or "", numeric), amount,
                   fields.get("58"), fields.get("59"), fields.get("60"), local)


def _proxy(fields: dict[str, str]) -> PayId | None:
    for scheme in EMV_SCHEMES:
        inner_text = fields.get(TEMPLATE[scheme])
        if inner_text is None:
            continue
        inner = objects(inner_text)
        if inner.get("00", "").lower() != GUID[scheme].lower():
            continue
        if scheme == "fps":
            for tag, kind in FPS_TAGS.items():
                if tag in inner:
                    value = inner[tag]
                    return PayId("fps", kind, value.replace("-", "") if kind == "mobile" else value)
        elif scheme == "paynow":
            proxy_type = PAYNOW_TYPES.get(inner.get("01", ""))
            if proxy_type and "02" in inner:
                return PayId("paynow", proxy_type, inner["02"])
        else:
            for tag, kind in PROMPTPAY_TAGS.items():
                if tag in inner:
                    value = inner[tag]
                    if kind == "mobile" and value.startswith("0066"):
                        value = "+66" + value[4:]
                    return PayId("promptpay", kind, value)
    return None
