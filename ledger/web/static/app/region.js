// The start form's defaults where nothing was chosen yet on this phone: the preset and
// currency of the phone's region (its language tag's region: zh-HK → HK). The table is
// documented in docs/offline.md, "Words and defaults for the phone's place".

export const REGIONS = {
  HK: { rules: "hong-kong", currency: "HKD" },
  MO: { rules: "hong-kong", currency: "MOP" },
  TW: { rules: "taiwan", currency: "TWD" },
  CN: { rules: "hong-kong-online", currency: "CNY" },
  SG: { rules: "hong-kong-online", currency: "SGD" },
  MY: { rules: "hong-kong-online", currency: "MYR" },
  PH: { rules: "pay-the-winner", currency: "PHP" },
  RU: { rules: "doubling", currency: "RUB" },
  FR: { rules: "choi-dai-di", currency: "EUR" },
};
export const ELSEWHERE = { rules: "classic", currency: "PTS" };

/** The region of a language tag (`zh-Hant-HK` → HK), or "". */
export function regionOf(tag) {
  const parts = String(tag || "").replace(/_/g, "-").split("-").slice(1);
  const found = parts.find((p) => /^[A-Za-z]{2}$/.test(p));
  return found ? found.toUpperCase() : "";
}

/** The defaults for the phone's languages (navigator.languages), first region known wins. */
export function regionDefaults(tags) {
  for (const tag of tags || []) {
    const known = REGIONS[regionOf(tag)];
    if (known) return known;
  }
  return ELSEWHERE;
}
