import { describe, expect, it } from 'vitest';
import { chartFrames, isDayLabelled } from './chart-frame';

const labelled = (dayCount: number, maxDayLabels: number) =>
  Array.from({ length: dayCount }, (_, index) => index).filter((index) =>
    isDayLabelled(index, dayCount, maxDayLabels),
  );

describe('the usage chart’s frames', () => {
  it('labels at most the frame’s number of days, evenly, always the newest', () => {
    expect(labelled(30, 4)).toEqual([5, 13, 21, 29]);
    expect(labelled(30, 8)).toEqual([1, 5, 9, 13, 17, 21, 25, 29]);
    expect(labelled(7, 4)).toEqual([0, 2, 4, 6]);
    expect(labelled(3, 4)).toEqual([0, 1, 2]);
    expect(labelled(1, 4)).toEqual([0]);
    for (const dayCount of [1, 2, 5, 31, 90, 366])
      for (const frame of chartFrames) {
        const days = labelled(dayCount, frame.maxDayLabels);
        expect(days.length).toBeLessThanOrEqual(frame.maxDayLabels);
        expect(days.at(-1)).toBe(dayCount - 1);
      }
  });

  it('draws the narrow frame about as wide as a phone leaves it, so its text is not shrunk', () => {
    const narrow = chartFrames.find((frame) => frame.name === 'narrow');
    const wide = chartFrames.find((frame) => frame.name === 'wide');
    // A 390 px phone leaves the chart 340 px (page and figure padding).
    expect(narrow?.width).toBeLessThanOrEqual(340);
    expect(wide?.width).toBeGreaterThan(2 * (narrow?.width ?? 0));
    expect(narrow?.maxDayLabels).toBeLessThan(wide?.maxDayLabels ?? 0);
  });
});
