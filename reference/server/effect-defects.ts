// Kept for defects.test.ts, which imports them from here until its split reads defects/effect-files.ts.
export { effectFile, keepNotesFile } from './defects/effect-files.js';
