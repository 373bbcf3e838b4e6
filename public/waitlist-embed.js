/* global document, window, URLSearchParams, fetch */
/*
 * Finance back office: the waitlist form for another site (docs/waitlist.md).
 * Plain JavaScript, no dependencies. It enhances a plain form (public/waitlist-snippet.html)
 * that already works without it: with it, the form posts JSON to <service origin>/v1/waitlist
 * across origins (allowed by CORS only from LANDING_ORIGIN), shows the confirmation or every
 * error in place, and fills the hidden source field from the page's ?utm_source.
 *
 * <form data-waitlist> ... </form>: enhanced. Optional data-endpoint="https://…/v1/waitlist";
 * by default the origin this script was loaded from. Inside the form: [data-waitlist-message]
 * (about the form), [data-waitlist-error="email"] (beside the email field); beside the form, in
 * the same parent: [data-waitlist-done] (shown instead of the form once accepted).
 */
(function () {
  "use strict";

  var script = document.currentScript;
  var scriptOrigin = script && script.src ? new URL(script.src, window.location.href).origin : window.location.origin;

  function retryWords(seconds) {
    if (!(seconds > 0)) return "in a moment";
    if (seconds < 90) return "in " + Math.ceil(seconds) + " seconds";
    if (seconds < 5400) return "in " + Math.ceil(seconds / 60) + " minutes";
    return "in " + Math.ceil(seconds / 3600) + " hours";
  }

  function show(element, text) {
    if (!element) return;
    element.textContent = text || "";
    element.hidden = !text;
  }

  function enhance(form) {
    var endpoint = form.getAttribute("data-endpoint") || scriptOrigin + "/v1/waitlist";
    var email = form.querySelector('[name="email"]');
    var source = form.querySelector('[name="source"]');
    var website = form.querySelector('[name="website"]');
    var message = form.querySelector("[data-waitlist-message]");
    var emailError = form.querySelector('[data-waitlist-error="email"]');
    var done = form.parentNode ? form.parentNode.querySelector("[data-waitlist-done]") : null;
    var button = form.querySelector('[type="submit"]');

    var utm = new URLSearchParams(window.location.search).get("utm_source");
    if (source && !source.value && utm) source.value = utm;
    form.noValidate = true;

    function setErrors(errors) {
      show(message, errors.form);
      show(emailError, errors.email);
      if (email) {
        if (errors.email) email.setAttribute("aria-invalid", "true");
        else email.removeAttribute("aria-invalid");
      }
      if (errors.email && email) email.focus();
      else if (errors.form && message) {
        message.setAttribute("tabindex", "-1");
        message.focus();
      }
    }

    function errorsOf(status, body, retryAfter) {
      if (status === 429)
        return { form: "Too many sign-ups from your network. Try again " + retryWords(Number(retryAfter)) + "." };
      if (status !== 400) return { form: "We could not add you just now. Try again in a moment." };
      var issues = (body && body.error && body.error.details && body.error.details.issues) || [];
      var errors = {};
      var other = [];
      for (var i = 0; i < issues.length; i++) {
        var issue = issues[i] || {};
        if (issue.path === "email") errors.email = errors.email || "Email " + issue.message + ".";
        else if (issue.path === "source") other.push("The link's source tag " + issue.message + ".");
        else other.push("The form " + issue.message + ".");
      }
      if (other.length) errors.form = other.join(" ");
      if (!errors.email && !errors.form) errors.form = "The form could not be read. Check it and try again.";
      return errors;
    }

    form.addEventListener("submit", function (event) {
      event.preventDefault();
      if (button) button.disabled = true;
      var body = {
        email: email ? email.value : "",
        source: source ? source.value : "",
        website: website ? website.value : "",
      };
      fetch(endpoint, {
        method: "POST",
        mode: "cors",
        credentials: "omit",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify(body),
      })
        .then(function (response) {
          return response
            .json()
            .catch(function () {
              return null;
            })
            .then(function (json) {
              if (response.status === 202) {
                setErrors({});
                form.hidden = true;
                if (done) {
                  done.hidden = false;
                  done.setAttribute("tabindex", "-1");
                  done.focus();
                }
                return;
              }
              setErrors(errorsOf(response.status, json, response.headers.get("Retry-After")));
            });
        })
        .catch(function () {
          // A network failure, or CORS refused this page's origin: the browser hides which.
          setErrors({ form: "We could not reach the waitlist. Check your connection and try again." });
        })
        .then(function () {
          if (button) button.disabled = false;
        });
    });
  }

  var forms = document.querySelectorAll("form[data-waitlist]");
  for (var i = 0; i < forms.length; i++) enhance(forms[i]);
})();
