import { describe, expect, it } from 'vitest';
import { enumAdvice } from './enum-advice.js';

describe('enumAdvice', () => {
  it('finds empty and repeating enums by keyword position, each repeated element once', () => {
    const schema = {
      properties: {
        a: { enum: [] },
        b: { enum: [{ x: 1, y: 2 }, { y: 2, x: 1 }, 'k', 'k', 'k'] },
        enum: { const: [] },
        c: { enum: ['one', 'two'] },
      },
      $defs: { d: { items: { enum: [] } } },
      default: { enum: [] },
    };
    expect(enumAdvice(schema)).toEqual([
      { at: '/$defs/d/items/enum', problem: 'empty' },
      { at: '/properties/a/enum', problem: 'empty' },
      { at: '/properties/b/enum', problem: 'duplicates', repeated: [{ y: 2, x: 1 }, 'k'] },
    ]);
  });
});
