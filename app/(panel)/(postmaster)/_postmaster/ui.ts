// Class names shared by the postmaster pages' own controls (form controls come from @/components): the link style
// is a short class of app/globals.css, since tables repeat it in every row (focus rings come from the base rule there).
export const linkClass = "link";
