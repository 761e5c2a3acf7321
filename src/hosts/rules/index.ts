import type { HostName, HostProfile } from '../types.js';
import { CLAUDE } from './claude.js';
import { CURSOR } from './cursor.js';
import { GEMINI } from './gemini.js';
import { OPENAI } from './openai.js';
import { VSCODE } from './vscode.js';

/** One profile per host, in the order of HOST_NAMES. */
export const HOST_PROFILES: Record<HostName, HostProfile> = {
  claude: CLAUDE,
  openai: OPENAI,
  gemini: GEMINI,
  cursor: CURSOR,
  vscode: VSCODE,
};
