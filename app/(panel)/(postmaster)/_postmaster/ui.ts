// Class names shared by the postmaster pages' own table controls (form controls come from @/components).
export const focusRing =
  "focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700";
export const linkClass = `text-blue-800 underline underline-offset-2 hover:text-blue-950 ${focusRing}`;
