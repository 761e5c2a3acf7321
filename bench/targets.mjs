// The performance issue's targets, judged from what one bench run measured. Pure: the bench fills `measured`.

/**
 * @typedef {object} Measured
 * @property {number} [stdioWallMs] median wall time of the stdio audit of the reference server
 * @property {number} [stdioRatio] median overhead ratio of that audit, wall / (requests × round trip)
 * @property {number} [versionMs] median cold start-up to --version
 * @property {{ wallMs: number, maxRssMb?: number }} [tenThousandTools] the --scale-tools 10000 audit
 * @property {number} [callsPerSecond] property-based calls per second over stdio
 * @property {{ oursMs: number, oursChecks: number, theirsMs: number, theirsChecks: number }} [official] every check of ours
 */

const TARGETS = [
  {
    name: 'stdio audit of the reference server under 0.5 s',
    judge: (m) => m.stdioWallMs === undefined ? undefined : { value: `${Math.round(m.stdioWallMs)} ms`, met: m.stdioWallMs < 500 },
  },
  {
    name: 'stdio overhead ratio under 3',
    judge: (m) => m.stdioRatio === undefined ? undefined : { value: m.stdioRatio.toFixed(1), met: m.stdioRatio < 3 },
  },
  {
    name: 'cold start-up to --version under 150 ms',
    judge: (m) => m.versionMs === undefined ? undefined : { value: `${Math.round(m.versionMs)} ms`, met: m.versionMs < 150 },
  },
  {
    name: '10,000 tools under 10 s and 500 MB',
    judge: (m) => {
      const run = m.tenThousandTools;
      if (run === undefined || run.maxRssMb === undefined) return undefined;
      return { value: `${Math.round(run.wallMs)} ms, ${Math.round(run.maxRssMb)} MB`, met: run.wallMs < 10_000 && run.maxRssMb < 500 };
    },
  },
  {
    name: 'over 1,000 property-based calls per second (stdio)',
    judge: (m) => m.callsPerSecond === undefined ? undefined : { value: String(Math.round(m.callsPerSecond)), met: m.callsPerSecond > 1000 },
  },
  {
    name: 'less wall time than the official suite, running more checks',
    judge: (m) => {
      const o = m.official;
      if (o === undefined) return undefined;
      return {
        value: `ours ${Math.round(o.oursMs)} ms for ${o.oursChecks} checks, theirs ${Math.round(o.theirsMs)} ms for ${o.theirsChecks}`,
        met: o.oursMs < o.theirsMs && o.oursChecks > o.theirsChecks,
      };
    },
  },
];

/** One row per target: its value and `met` (true/false), or why it was not measured in this run. */
export function judgeTargets(/** @type {Measured} */ measured) {
  return TARGETS.map(({ name, judge }) => {
    const verdict = judge(measured);
    return verdict === undefined ? { name, value: 'not measured (its section did not run)', met: undefined } : { name, ...verdict };
  });
}
