// What the sign-in page says for each failure code: the owner token form's codes (from
// /api/panel/sign-in, for the no-JavaScript redirect and the form's script alike), and the
// email link's (Auth.js's `?error=<type>` and the verify route's login_token_invalid).
export const SIGN_IN_MESSAGES: Record<string, string> = {
  missing_token: "Enter your owner token.",
  invalid_token: "That token is not valid. Check it and try again.",
  rate_limited: "Too many attempts. Wait a minute and try again.",
  csrf_rejected: "Sign-in must come from this site's sign-in page.",
  internal_error: "Something went wrong on our side. Try again.",
};

/** A used, expired or unknown link: the page offers to send a new one. */
export const LINK_EXPIRED_MESSAGE =
  "This sign-in link was already used or has expired. Enter your email and we will send you a new one.";

export const LINK_MESSAGES: Record<string, string> = {
  Verification: LINK_EXPIRED_MESSAGE,
  login_token_invalid: LINK_EXPIRED_MESSAGE,
  EmailSignin: "The sign-in mail could not be sent. Try again in a moment.",
  AccessDenied: "That address cannot sign in here.",
  Configuration: "Sign-in is not available right now because of a problem on our side. Try again later.",
  Default: "Sign-in did not work. Try again.",
};

/** The message for an Auth.js error type we do not name above. */
export const LINK_FALLBACK_MESSAGE = "Sign-in did not work. Try again.";
