import { describe, expect, it } from 'vitest';
import { reusedKeys } from './id-never-reused.js';

describe('reusedKeys', () => {
  it('finds a key used before in the same group only, telling 1 from "1"', () => {
    const items = [
      { group: 'a', id: 1 },
      { group: 'a', id: '1' },
      { group: 'b', id: 1 },
      { group: 'a', id: 2 },
      { group: 'a', id: 1 },
    ];
    expect(
      reusedKeys(
        items,
        (i) => i.group,
        (i) => i.id,
      ),
    ).toEqual([{ item: items[4], earlier: items[0] }]);
  });
});
