// The host's side of what pi extensions draw (render.mjs is the
// worker's): which extension owns the footer and the header, and which
// one cairn's render call goes to.

/** chromeOwners are the extensions whose components hold the footer and header. */
export const chromeOwners = { footer: null, header: null };

/**
 * noteChrome records who holds a place after an extension's UI call:
 * setFooter and setHeader with a component take it, without give it
 * back (pi's last call wins).
 */
export function noteChrome(x, params) {
  const place = { setFooter: "footer", setHeader: "header" }[params?.method];
  if (place) chromeOwners[place] = params.component ? x : null;
}

/** forgetChrome gives back what an extension that stopped held. */
export function forgetChrome(x) {
  for (const k of Object.keys(chromeOwners)) if (chromeOwners[k] === x) chromeOwners[k] = null;
}

/**
 * renderer is the running extension that draws cairn's render request p,
 * or null (cairn draws its own). owner(kind, name) finds a tool's owner.
 */
export function renderer(exts, owner, p) {
  let x;
  switch (p?.target) {
    case "footer":
    case "header":
      x = chromeOwners[p.target];
      break;
    case "message":
      x = exts.find((o) => o.state === "ready" && o.info?.messageRenderers?.includes(p.customType));
      break;
    case "entry":
      x = exts.find((o) => o.state === "ready" && o.info?.entryRenderers?.includes(p.customType));
      break;
    case "toolCall":
    case "toolResult":
      x = owner("tools", p.toolName);
      break;
    default:
      throw new Error(`cannot render ${JSON.stringify(p?.target)}`);
  }
  return x && x.state === "ready" ? x : null;
}
