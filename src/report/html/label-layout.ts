/**
 * Where chart labels go so that none covers another: a label's box is estimated from its text (the report's 11 px
 * system font is under 7 px a character), fixed texts are reserved first, and each label takes the first free place
 * among its candidates. Pure: the same input gives the same layout.
 */

export interface Box {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export const CHAR_WIDTH = 7;
export const LINE_HEIGHT = 13;
/** from a line's top to its baseline, for the 11 px font */
export const ASCENT = 10;

/** The box of a text of `lines` whose first baseline is at `baseline`, anchored at `x` (start, middle or end). */
export function textBox(
  lines: readonly string[],
  x: number,
  baseline: number,
  anchor: 'start' | 'middle' | 'end' = 'start',
): Box {
  const width = Math.max(...lines.map((line) => line.length)) * CHAR_WIDTH;
  const left = anchor === 'start' ? x : anchor === 'end' ? x - width : x - width / 2;
  return { x: left, y: baseline - ASCENT, width, height: lines.length * LINE_HEIGHT };
}

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

const inside = (box: Box, bounds: Box): boolean =>
  box.x >= bounds.x &&
  box.y >= bounds.y &&
  box.x + box.width <= bounds.x + bounds.width &&
  box.y + box.height <= bounds.y + bounds.height;

export class LabelLayout {
  private readonly taken: Box[] = [];
  private readonly bounds: Box;

  constructor(bounds: Box) {
    this.bounds = bounds;
  }

  /** A box something else already occupies (axis labels, titles). */
  reserve(box: Box): void {
    this.taken.push(box);
  }

  /** The first candidate inside the bounds that covers nothing placed so far, taken; null when every one does. */
  place(candidates: readonly Box[]): Box | null {
    const free = candidates.find(
      (box) => inside(box, this.bounds) && !this.taken.some((other) => overlaps(box, other)),
    );
    if (free) this.taken.push(free);
    return free ?? null;
  }
}

/**
 * Places beside a point of radius `r` at (cx, cy) for a label `width` × `height`: right, left, above, below, then
 * further up and down on either side, so a crowded label still finds a spot near its point.
 */
export function candidatesAround(cx: number, cy: number, r: number, width: number, height: number): Box[] {
  const right = cx + r + 4;
  const left = cx - r - 4 - width;
  const middle = cy - height / 2;
  const boxes: Box[] = [
    { x: right, y: middle, width, height },
    { x: left, y: middle, width, height },
    { x: cx - width / 2, y: cy - r - 3 - height, width, height },
    { x: cx - width / 2, y: cy + r + 3, width, height },
  ];
  for (let step = 1; step <= 12; step += 1) {
    for (const shift of [-step * LINE_HEIGHT, step * LINE_HEIGHT]) {
      boxes.push({ x: right, y: middle + shift, width, height }, { x: left, y: middle + shift, width, height });
    }
  }
  return boxes;
}

/** `<text>` for a placed box: one tspan a line, each line's baseline LINE_HEIGHT below the one before. */
export function textAt(
  box: Box,
  lines: readonly string[],
  escape: (text: string) => string,
  className: string,
): string {
  const first = box.y + ASCENT;
  const spans = lines.map(
    (line, index) =>
      `<tspan x="${box.x.toFixed(1)}" y="${(first + index * LINE_HEIGHT).toFixed(1)}">${escape(line)}</tspan>`,
  );
  return `<text class="${className}">${spans.join('')}</text>`;
}
