// Drops, from package-lock.json, the optional dependencies the lock has no entry for: the other
// platforms' native packages of a CLI (opencode's, Qwen Code's clipboard) when the registry the
// lock was made from served only this platform's. Without this `npm ci` refuses the lock.
import { readFileSync, writeFileSync } from "node:fs";

const file = new URL("./package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(file, "utf8"));
const present = new Set(
  Object.keys(lock.packages).filter(Boolean).map((path) => path.split("node_modules/").pop()),
);
let dropped = 0;
for (const entry of Object.values(lock.packages)) {
  for (const name of Object.keys(entry.optionalDependencies ?? {})) {
    if (!present.has(name)) {
      delete entry.optionalDependencies[name];
      dropped++;
    }
  }
}
writeFileSync(file, JSON.stringify(lock, null, 2) + "\n");
console.log(`package-lock.json: ${dropped} optional dependencies without an entry dropped`);
