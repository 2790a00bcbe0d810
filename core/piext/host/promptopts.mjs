// pi's before_agent_start systemPromptOptions in cairn's pi extension
// host: cairn sends what its prompt is built from; an extension's
// changes to options.sections (named prompt sections, pi's way to add to
// the prompt without rewriting it) go back to cairn. cairn builds its
// prompt its own way, so a change to another option is named in the
// extension's log rather than dropped unsaid.

/** snapshot is a copy of the options to compare with after the handlers. */
export function snapshot(options) {
  return options ? JSON.stringify(options) : undefined;
}

/**
 * withSections adds to r, before_agent_start's combined result, the
 * sections the handlers left in options when they changed them (as
 * [{name, text}], in pi's order); unsupported names other changes.
 */
export function withSections(r, before, options, unsupported) {
  if (!options || before === undefined) return r;
  const was = JSON.parse(before);
  for (const k of Object.keys(options)) {
    if (k !== "sections" && JSON.stringify(options[k]) !== JSON.stringify(was[k])) unsupported(`systemPromptOptions.${k}`);
  }
  const sections = Object.entries(options.sections ?? {}).map(([name, text]) => ({ name, text: text == null ? "" : String(text) }));
  if (JSON.stringify(options.sections ?? {}) === JSON.stringify(was.sections ?? {})) return r;
  return { ...(r ?? {}), sections };
}
