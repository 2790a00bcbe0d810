// pi-skill-count.mjs - count the SKILL.md files pi's own loader accepts under
// a directory. Usage: node pi-skill-count.mjs PI_PACKAGE_DIR SKILLS_DIR [--list]
// PI_PACKAGE_DIR is the installed @earendil-works/pi-coding-agent package.
// Prints "files=N loaded=N in-use=N skipped=N"; with --list, one line per
// file: "load<TAB>path" or "skip<TAB>path<TAB>reason".
import { pathToFileURL } from "node:url";
import { join, resolve } from "node:path";

const [pkg, rawDir, flag] = process.argv.slice(2);
const dir = rawDir && resolve(rawDir);
if (!pkg || !rawDir) {
  console.error("usage: node pi-skill-count.mjs PI_PACKAGE_DIR SKILLS_DIR [--list]");
  process.exit(2);
}
const { loadSkillsFromDir, loadSkills } = await import(pathToFileURL(join(pkg, "dist/core/skills.js")).href);
const found = loadSkillsFromDir({ dir, source: "path" });
const inUse = loadSkills({ cwd: dir, agentDir: "/nonexistent", skillPaths: [dir], includeDefaults: false });
const loaded = new Set(found.skills.map((s) => s.filePath));
const skipped = new Map();
for (const d of found.diagnostics) {
  if (!loaded.has(d.path) && !skipped.has(d.path)) skipped.set(d.path, d.message);
}
if (flag === "--list") {
  for (const p of [...loaded].sort()) console.log(`load\t${p}`);
  for (const [p, why] of [...skipped].sort()) console.log(`skip\t${p}\t${why.split("\n")[0]}`);
}
console.log(`pi: loaded=${loaded.size} in-use=${inUse.skills.length} skipped-with-reason=${skipped.size}`);
