"""Pay ids and EMVCo payment payloads (ledger/core/paycode.py), checked against the
specifications' test vectors, payloads published by other projects, a parser written
here from the specification alone, and a round-trip property."""

from __future__ import annotations

import unicodedata
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ledger.core.errors import InputError
from ledger.core.paycode import (
    PayId,
    build,
    check_pay_id,
    choose,
    crc16,
    fits,
    merchant_name,
    parse,
    pay_code,
    thai_id_ok,
)

# --- CRC-16/CCITT-FALSE ---------------------------------------------------------------


@pytest.mark.parametrize(("data", "crc"), [
    (b"123456789", 0x29B1),  # the catalogue's check value of CRC-16/CCITT-FALSE
    (b"", 0xFFFF),  # the initial value, no final XOR
    (b"A", 0xB915),
])
def test_crc_vectors(data: bytes, crc: int) -> None:
    assert crc16(data) == crc


# --- payloads published by others -----------------------------------------------------

# Each verifies: its CRC is the CRC of the rest.  Sources: promptpay-qr (npm) tests,
# Odoo's l10n_hk tests, public FPS and PayNow decoders' examples.
PUBLISHED = [
    ("00020101021129370016A000000677010111011300668012345675802TH530376463046197",
     PayId("promptpay", "mobile", "+66801234567"), "THB", None),
    ("00020101021129370016A000000677010111011300668912345675802TH5303764630429C1",
     PayId("promptpay", "mobile", "+66891234567"), "THB", None),
    ("00020101021129370016A000000677010111021311111111111115802TH530376463047B5A",
     PayId("promptpay", "national_id", "1111111111111"), "THB", None),
    ("00020101021229370016A000000677010111011300660000000005802TH530376454044.226304E469",
     PayId("promptpay", "mobile", "+66000000000"), "THB", Decimal("4.22")),
    # 53 and 58 before 29: EMVCo fixes only 00 first and 63 last.
    ("00020101021153037645802TH29370016A0000006770101110113006681017332754074999.9963040154",
     PayId("promptpay", "mobile", "+66810173327"), "THB", Decimal("4999.99")),
    ("00020101021226330012hk.com.hkicl0313+852-6789123452040000530334454031005802HK5914"
     "company_1_data6002HK62170513INV/TEST/00016304A154",
     PayId("fps", "mobile", "+85267891234"), "HKD", Decimal("100")),
    ("00020101021126400012hk.com.hkicl01030040313+852-8765432152040000530334454041.235802HK"
     "5902NA6002HK6304C246", PayId("fps", "mobile", "+85287654321"), "HKD", Decimal("1.23")),
    ("00020101021226320012hk.com.hkicl0207600050906011520400005303344540510.505802HK5902NA"
     "6002HK62270523HKTEST202103190606259626304BCD1",
     PayId("fps", "fps_id", "6000509"), "HKD", Decimal("10.50")),
    ("00020101021226540009SG.PAYNOW01012020912345678A03011041420241130230000520400005303702"
     "540599.995802SG5912TEST COMPANY6009Singapore62140110TESTQRCODE63042A56",
     PayId("paynow", "uen", "12345678A"), "SGD", Decimal("99.99")),
]


@pytest.mark.parametrize(("payload", "pay_id", "currency", "amount"), PUBLISHED)
def test_published_payloads_parse(payload: str, pay_id: PayId, currency: str,
                                  amount: Decimal | None) -> None:
    got = parse(payload)
    assert (got.pay_id, got.currency, got.amount) == (pay_id, currency, amount)


@pytest.mark.parametrize(("payload", "pay_id", "amount", "name"), [
    (PUBLISHED[5][0], PayId("fps", "mobile", "+85267891234"), Decimal("100"), "company_1_data"),
])
def test_fps_build_matches_published(payload: str, pay_id: PayId, amount: Decimal,
                                     name: str) -> None:
    """Our FPS payload is the published one up to its additional data (62), which we
    leave out: the same objects in the same order."""
    ours = build(pay_id, amount, "HKD", name)
    assert ours[:-8] == payload[:payload.index("6002HK") + 6]
    assert parse(ours).pay_id == pay_id


def test_promptpay_fields_as_published() -> None:
    """The published PromptPay payload's account template, currency, amount and country,
    in ours for the same id and amount."""
    published = parse(PUBLISHED[3][0]).fields
    ours = parse(build(PayId("promptpay", "mobile", "+66000000000"), Decimal("4.22"), "THB",
                       "Dan")).fields
    for tag in ("00", "01", "29", "53", "54", "58"):
        assert ours[tag] == published[tag]


# --- a parser written here from the specification only ----------------------------------


def spec_decode(payload: str) -> dict[str, str]:
    """EMVCo MPM from its text alone: ID (2 digits), length (2 digits), value; the CRC
    object "6304" + 4 hex digits last, over everything before those 4 digits."""
    out: dict[str, str] = {}
    i = 0
    while i < len(payload):
        tag, n = payload[i:i + 2], int(payload[i + 2:i + 4])
        out[tag] = payload[i + 4:i + 4 + n]
        i += 4 + n
    assert payload[-8:-4] == "6304"
    crc = 0xFFFF
    for b in payload[:-4].encode():
        crc ^= b << 8
        for _ in range(8):
            crc = (crc << 1 ^ 0x1021 if crc & 0x8000 else crc << 1) & 0xFFFF
    out["crc_ok"] = "yes" if f"{crc:04X}" == payload[-4:] else "no"
    return out


@pytest.mark.parametrize(("scheme", "typed", "currency", "template", "sub", "proxy"), [
    ("fps", "1234567", "HKD", "26", "02", "1234567"),
    ("fps", "+852 9123 4567", "HKD", "26", "03", "+852-91234567"),
    ("fps", "dan@example.com", "CNY", "26", "04", "dan@example.com"),
    ("paynow", "+65 9123 4567", "SGD", "26", "02", "+6591234567"),
    ("paynow", "201912345K", "SGD", "26", "02", "201912345K"),
    ("promptpay", "081-234-5678", "THB", "29", "01", "0066812345678"),
    ("promptpay", "1101700207366", "THB", "29", "02", "1101700207366"),
])
def test_independent_parser_reads_ours(scheme: str, typed: str, currency: str, template: str,
                                       sub: str, proxy: str) -> None:
    payload = build(check_pay_id(scheme, typed), Decimal("30.50"), currency, "李小明")
    got = spec_decode(payload)
    assert got["crc_ok"] == "yes"
    assert payload.startswith("000201010212")
    inner = spec_decode(got[template] + "6304" + "0000")  # the template's own objects
    assert inner[sub] == proxy
    assert got["53"] == {"HKD": "344", "CNY": "156", "SGD": "702", "THB": "764"}[currency]
    assert got["54"] == "30.50"
    assert got["59"] == "NA"  # not ASCII
    assert got["52"] == "0000"
    if scheme == "paynow":
        assert (inner["00"], inner["03"]) == ("SG.PAYNOW", "0")
    tampered = payload.replace("30.50", "30.60")
    assert spec_decode(tampered)["crc_ok"] == "no"


# --- round trip ---------------------------------------------------------------------

_ids = st.one_of(
    st.builds(lambda d: ("fps", d), st.from_regex(r"[0-9]{7,9}", fullmatch=True)),
    st.builds(lambda d: ("fps", "+852" + d), st.from_regex(r"[0-9]{8}", fullmatch=True)),
    st.builds(lambda a: ("fps", a + "@example.hk"), st.from_regex(r"[a-z0-9.]{1,20}", fullmatch=True)),
    st.builds(lambda d: ("paynow", "+65" + d), st.from_regex(r"[89][0-9]{7}", fullmatch=True)),
    st.builds(lambda d: ("paynow", d), st.from_regex(r"[0-9]{9}[A-Z]", fullmatch=True)),
    st.builds(lambda d: ("promptpay", "0" + d), st.from_regex(r"[689][0-9]{8}", fullmatch=True)),
)
_amounts = st.decimals(min_value=Decimal("0.01"), max_value=Decimal("999999.99"), places=2)
_names = st.text(st.characters(codec="utf-8", exclude_categories=("C", "Z")), min_size=1,
                 max_size=30)


@given(_ids, _amounts, _names)
def test_round_trip(given_id: tuple[str, str], amount: Decimal, name: str) -> None:
    scheme, typed = given_id
    pay_id = check_pay_id(scheme, typed)
    currency = {"fps": "HKD", "paynow": "SGD", "promptpay": "THB"}[scheme]
    got = parse(build(pay_id, amount, currency, name, local_name=True))
    assert got.pay_id == pay_id
    assert (got.currency, got.amount) == (currency, amount)
    assert got.name == merchant_name(name)
    tags = list(got.fields)
    assert (tags[0], tags[-1]) == ("00", "63")
    if got.name == "NA":
        assert got.local_name == unicodedata.normalize("NFC", " ".join(name.split()))[:25]


# --- pay ids ------------------------------------------------------------------------


@pytest.mark.parametrize(("scheme", "typed", "kind", "value"), [
    ("fps", "123456789", "fps_id", "123456789"),
    ("FPS", "+852-6789-1234", "mobile", "+85267891234"),
    ("fps", "Dan@Example.com", "email", "Dan@Example.com"),
    ("paynow", "91234567", "mobile", "+6591234567"),
    ("paynow", "t08gb0001a", "uen", "T08GB0001A"),
    ("paynow", "53312345A", "uen", "53312345A"),
    ("promptpay", "+66 81 234 5678", "mobile", "+66812345678"),
    ("promptpay", "1-1017-00207-36-6", "national_id", "1101700207366"),
    ("text", "  wxp://f2f0abc  ", "text", "wxp://f2f0abc"),
])
def test_pay_ids(scheme: str, typed: str, kind: str, value: str) -> None:
    assert check_pay_id(scheme, typed) == PayId(scheme.lower(), kind, value)


@pytest.mark.parametrize(("scheme", "typed", "says"), [
    ("fps", "123456", "FPS id (7 to 9 digits)"),
    ("fps", "91234567890", "Hong Kong mobile"),
    ("fps", "+852 1234567", "+852 and 8 digits"),
    ("fps", "not-an-email@", "e-mail"),
    ("paynow", "+65 7123 4567", "starting 8 or 9"),
    ("paynow", "1234", "UEN"),
    ("promptpay", "+66 1 234 5678", "Thai mobile"),
    ("promptpay", "1111111111111", "check digit"),
    ("venmo", "@dan", "unknown payment scheme"),
    ("text", "two\nlines", "one line"),
    ("text", "   ", "cannot be empty"),
])
def test_bad_pay_ids(scheme: str, typed: str, says: str) -> None:
    with pytest.raises(InputError, match=says.replace("+", r"\+").replace("(", r"\(")
                       .replace(")", r"\)")):
        check_pay_id(scheme, typed)


def test_thai_check_digit() -> None:
    assert thai_id_ok("1101700207366")
    assert not thai_id_ok("1101700207367")
    assert not thai_id_ok("110170020736")


def test_schemes_and_currencies() -> None:
    assert fits("fps", "HKD") and fits("fps", "CNY") and not fits("fps", "SGD")
    assert fits("paynow", "SGD") and not fits("paynow", "HKD")
    assert fits("promptpay", "THB") and not fits("promptpay", None)
    with pytest.raises(InputError, match="fps pays in HKD or CNY, not SGD"):
        build(PayId("fps", "fps_id", "1234567"), Decimal(1), "SGD", "Dan")
    fps, text = PayId("fps", "fps_id", "1234567"), PayId("text", "text", "alipay://x")
    assert choose([text, fps], "HKD") == fps
    assert choose([text, fps], "SGD") == text
    assert choose([fps], "THB") is None
    assert pay_code(fps, Decimal(0), "HKD", "Dan") is None
    assert pay_code(text, Decimal(5), "EUR", "Dan") == ("text", "alipay://x")
    assert pay_code(fps, Decimal(5), "SGD", "Dan") is None


def test_names_and_amounts() -> None:
    assert merchant_name("Dan") == "Dan"
    assert merchant_name("A very long name of somebody") == "A very long name of someb"
    assert merchant_name("陳大文") == "NA"
    with pytest.raises(InputError, match="above 0"):
        build(PayId("fps", "fps_id", "1234567"), Decimal("-1"), "HKD", "Dan")


@pytest.mark.parametrize(("payload", "says"), [
    ("0102120002016304ABCD", "begin with 000201"),
    ("000201010212", "CRC"),
    ("00020101021263041234", "CRC is 1234"),
    ("0002010105", "cut short"),
    ("00020100020163040000", "twice"),
    ("000201X1", "no tag and length"),
])
def test_bad_payloads(payload: str, says: str) -> None:
    with pytest.raises(InputError, match=says):
        parse(payload)


@given(_ids)
def test_a_written_id_reads_back_as_itself(given_id: tuple[str, str]) -> None:
    """The ledger keeps the written form and checks it again when read."""
    scheme, typed = given_id
    written = check_pay_id(scheme, typed)
    assert check_pay_id(scheme, written.value) == written
