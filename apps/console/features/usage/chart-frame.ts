/**
 * The frame the usage chart is drawn in. The SVG scales to its box, text included, so one drawing
 * cannot serve both a desk and a phone: 11-unit labels of a 720-unit-wide chart render at about 5 px
 * in the 340 px a phone leaves. The chart is therefore drawn twice, and CSS shows the frame that fits
 * (`narrow` at ≤ 640 px): the narrow one is about as many units wide as the pixels it gets, so its
 * labels render at their size, and it labels fewer days and writes ticks compactly (`1.2M`).
 */
export interface ChartFrame {
  readonly name: 'wide' | 'narrow';
  readonly width: number;
  readonly height: number;
  readonly margin: {
    readonly top: number;
    readonly right: number;
    readonly bottom: number;
    readonly left: number;
  };
  /** The most day labels under the bars. */
  readonly maxDayLabels: number;
  /** Tick numbers written compactly (`1.2M`) to fit a narrow left margin. */
  readonly compactTicks: boolean;
}

export const chartFrames: readonly ChartFrame[] = [
  {
    name: 'wide',
    width: 720,
    height: 260,
    margin: { top: 12, right: 8, bottom: 28, left: 64 },
    maxDayLabels: 8,
    compactTicks: false,
  },
  {
    name: 'narrow',
    width: 340,
    height: 220,
    margin: { top: 14, right: 6, bottom: 30, left: 52 },
    maxDayLabels: 4,
    compactTicks: true,
  },
];

/**
 * Whether the day at `dayIndex` (of `dayCount`) gets a label: at most `maxDayLabels` of them, evenly
 * spaced and counted from the end, so the newest day (usually today) is always labelled.
 */
export function isDayLabelled(dayIndex: number, dayCount: number, maxDayLabels: number): boolean {
  const every = Math.max(1, Math.ceil(dayCount / Math.max(1, maxDayLabels)));
  return (dayCount - 1 - dayIndex) % every === 0;
}
