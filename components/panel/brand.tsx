// The product mark and name (sidebar and sign-in page).
export function BrandMark() {
  return (
    <span className="brand-mark" aria-hidden="true">
      FB
    </span>
  );
}
