// What the sign-in page says for each failure code of /api/panel/sign-in (used by the server
// page for the no-JavaScript redirect and by the form's script alike).
export const SIGN_IN_MESSAGES: Record<string, string> = {
  missing_token: "Enter your owner token.",
  invalid_token: "That token is not valid. Check it and try again.",
  rate_limited: "Too many attempts. Wait a minute and try again.",
  csrf_rejected: "Sign-in must come from this site's sign-in page.",
  internal_error: "Something went wrong on our side. Try again.",
};
