// THE currency table: the ISO 4217 codes this service accepts and their minor units (list one,
// "Minor unit" column), as data, and the only place either is decided. The server (what
// amount_minor means, which codes are accepted; server/shared/currencies.ts adds the contract's
// errors for a code outside the table) and the panel (entry and display: lib/money.ts) both
// read it, so they can never disagree. Pure data, no imports: safe in the client bundle.
//
// Not the runtime's ICU (Intl): CLDR gives fewer digits than ISO for 17 codes (AFN, ALL, COP,
// HUF, IDR, IRR, KPW, LAK, LBP, MGA, MMK, PKR, SLL, SOS, SYP, YER: 0 instead of 2; IQD: 0
// instead of 3), and a browser's ICU may know other codes than the server's. The list is the
// one the server's ICU accepted when this table was written; codes ICU never listed (the fund
// codes BOV, CHE, CHW, CLF, COU, MXV, USN, UYI, UYW) stay refused. XDR and XSU have no minor
// unit in ISO ("N.A."); they keep the 2 decimals the service has always used for them.
//
// lib/money.test.ts checks every entry against ICU, with the 17 exceptions stated there.

const CODES_BY_MINOR_UNITS: Readonly<Record<0 | 2 | 3, string>> = {
  0: "BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX VND VUV XAF XOF XPF",
  2:
    "AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND " +
    "BOB BRL BSD BTN BWP BYN BZD CAD CDF CHF CNY COP CRC CUC CUP CVE " +
    "CZK DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GTQ " +
    "GYD HKD HNL HRK HTG HUF IDR ILS INR IRR JMD KES KGS KHR KPW KYD " +
    "KZT LAK LBP LKR LRD LSL MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR " +
    "MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD PAB PEN PGK PHP PKR PLN " +
    "QAR RON RSD RUB SAR SBD SCR SDG SEK SGD SHP SLE SLL SOS SRD SSP " +
    "STN SVC SYP SZL THB TJS TMT TOP TRY TTD TWD TZS UAH USD UYU UZS " +
    "VES WST XCD XCG XDR XSU YER ZAR ZMW ZWG ZWL",
  3: "BHD IQD JOD KWD LYD OMR TND",
};

const MINOR_UNITS: ReadonlyMap<string, number> = new Map(
  Object.entries(CODES_BY_MINOR_UNITS).flatMap(([digits, codes]) => codes.split(" ").map((code) => [code, Number(digits)])),
);

/** Every accepted ISO 4217 code, sorted. */
export const CURRENCY_CODES: readonly string[] = [...MINOR_UNITS.keys()].sort();

/** Whether the service accepts this code (exact, upper case). */
export function isCurrencyCode(code: string): boolean {
  return MINOR_UNITS.has(code);
}

/** ISO 4217 minor units of an accepted code (JPY 0, EUR 2, KWD 3); undefined for any other. */
export function isoMinorUnits(code: string): number | undefined {
  return MINOR_UNITS.get(code);
}
