// A line chart as SVG text (no dependency): x and y on log scales, one line
// per series, a legend; for the benchmark's growth figures.
export interface Series {
  name: string;
  values: (number | undefined)[];
}

const COLORS = ['#1f77b4', '#aec7e8', '#d62728', '#ff7f0e', '#2ca02c', '#9467bd', '#8c564b', '#e377c2'];
const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
const short = (n: number) => (n >= 1e6 ? `${n / 1e6}M` : n >= 1e3 ? `${n / 1e3}k` : `${n}`);

export function growthChart(xs: number[], series: Series[], title: string): string {
  const width = 760,
    height = 420,
    left = 70,
    right = 250,
    top = 40,
    bottom = 50;
  const values = series.flatMap((s) => s.values.filter((v): v is number => v !== undefined && v > 0));
  const decade = (v: number, up: boolean) => 10 ** (up ? Math.ceil(Math.log10(v)) : Math.floor(Math.log10(v)));
  const yMin = decade(Math.min(...values), false),
    yMax = decade(Math.max(...values), true);
  const xMin = Math.min(...xs),
    xMax = Math.max(...xs);
  const px = (x: number) =>
    left + ((Math.log10(x) - Math.log10(xMin)) / (Math.log10(xMax) - Math.log10(xMin) || 1)) * (width - left - right);
  const py = (y: number) =>
    height -
    bottom -
    ((Math.log10(y) - Math.log10(yMin)) / (Math.log10(yMax) - Math.log10(yMin) || 1)) * (height - top - bottom);
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="${left}" y="22" font-size="14" font-weight="bold">${escape(title)}</text>`,
  ];
  for (let y = yMin; y <= yMax; y *= 10) {
    out.push(
      `<line x1="${left}" x2="${width - right}" y1="${py(y)}" y2="${py(y)}" stroke="#ddd"/>`,
      `<text x="${left - 6}" y="${py(y) + 4}" text-anchor="end">${y >= 1000 ? `${y / 1000} s` : `${y} ms`}</text>`,
    );
  }
  for (const x of xs)
    out.push(
      `<line x1="${px(x)}" x2="${px(x)}" y1="${top}" y2="${height - bottom}" stroke="#eee"/>`,
      `<text x="${px(x)}" y="${height - bottom + 18}" text-anchor="middle">${short(x)}</text>`,
    );
  out.push(
    `<text x="${(left + width - right) / 2}" y="${height - 10}" text-anchor="middle">translations in the project</text>`,
  );
  series.forEach((s, i) => {
    const color = COLORS[i % COLORS.length]!;
    const points = s.values.flatMap((v, j) =>
      v !== undefined && v > 0 ? [`${px(xs[j]!).toFixed(1)},${py(v).toFixed(1)}`] : [],
    );
    if (points.length > 1)
      out.push(`<polyline fill="none" stroke="${color}" stroke-width="2" points="${points.join(' ')}"/>`);
    for (const p of points) {
      const [x, y] = p.split(',');
      out.push(`<circle cx="${x}" cy="${y}" r="3" fill="${color}"/>`);
    }
    const ly = top + 10 + i * 20;
    out.push(
      `<line x1="${width - right + 15}" x2="${width - right + 35}" y1="${ly}" y2="${ly}" stroke="${color}" stroke-width="2"/>`,
      `<text x="${width - right + 40}" y="${ly + 4}">${escape(s.name)}</text>`,
    );
  });
  out.push('</svg>');
  return out.join('\n') + '\n';
}
