// Switches the page's amounts to another display currency: a plain GET form (`?display_currency=`),
// so it works before the page's scripts load and the address can be shared. The base currency
// is the first choice; the server converts and says when it cannot.
import { COMMON_CURRENCIES } from "../businesses/currencies";

export function DisplayCurrencyForm(props: {
  baseCurrency: string;
  /** The display currency in effect (the base one when none was asked for). */
  current: string;
  /** Other query parameters of the page to keep (e.g. the forecast's horizon). */
  keep?: Record<string, string>;
}) {
  const codes = [props.baseCurrency, ...COMMON_CURRENCIES.map((currency) => currency.code)];
  if (!codes.includes(props.current)) codes.push(props.current);
  const unique = [...new Set(codes)];
  return (
    <form method="get" className="currency-form" aria-label="Display currency">
      {Object.entries(props.keep ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <label className="label" htmlFor="display-currency">
        Show amounts in
      </label>
      <select id="display-currency" name="display_currency" className="select select-small" defaultValue={props.current}>
        {unique.map((code) => (
          <option key={code} value={code}>
            {code === props.baseCurrency ? `${code} (base)` : code}
          </option>
        ))}
      </select>
      <button type="submit" className="button button-secondary button-small">
        Apply
      </button>
    </form>
  );
}
