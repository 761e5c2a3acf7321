import { describe, expect, it } from 'vitest';
import { baggageProblem, traceparentProblem, tracestateProblem } from './trace-context.js';

describe('W3C trace context values', () => {
  it('traceparent: the spec example passes; wrong shapes, upper case and all-zero ids do not', () => {
    expect(traceparentProblem('00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01')).toBeUndefined();
    expect(traceparentProblem('00-0AF7651916CD43DD8448EB211C80319C-00f067aa0ba902b7-01')).toMatch(/lower-case hex/);
    expect(traceparentProblem('00-00000000000000000000000000000000-00f067aa0ba902b7-01')).toMatch(/trace-id/);
    expect(traceparentProblem('ff-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01')).toMatch(/version ff/);
    expect(traceparentProblem(42)).toMatch(/not a string/);
  });

  it('tracestate and baggage: key=value lists', () => {
    expect(tracestateProblem('rojo=00f067aa0ba902b7,congo=t61rcWkgMzE')).toBeUndefined();
    expect(tracestateProblem('rojo')).toMatch(/not key=value/);
    expect(baggageProblem('userId=alice,serverNode=DF%2028;prop')).toBeUndefined();
    expect(baggageProblem('no value here')).toMatch(/not key=value/);
  });
});
