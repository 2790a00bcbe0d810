// Not a pi extension: no default export.
export const x = 1;
