// pi's registerFlag and getFlag in cairn's pi extension host: the
// command line's flags cairn does not know reach every extension at
// start (initialize's "flags"); a flag an extension registers takes its
// value from there, else its default, as pi's command line gives it.

/**
 * flagValue is the value of the flag name an extension registers with
 * options, given the command line's unknown flags (name -> string or
 * true): a switch given on the command line is true, a string flag its
 * value; absent, the default. cairn refuses a switch given a value and a
 * string flag given none before the session starts (CheckFlags).
 */
export function flagValue(cli, name, options) {
  if (!Object.hasOwn(cli, name)) return options.default;
  const v = cli[name];
  if (options.type === "boolean") return true;
  return typeof v === "string" ? v : options.default;
}

/** flagDef is a registered flag as cairn's protocol lists it. */
export function flagDef(name, options) {
  const d = { name, type: options.type === "boolean" ? "boolean" : "string" };
  if (options.description) d.description = String(options.description);
  return d;
}
