/**
 * The QR code an authenticator app scans, as the SVG text GoTrue sends in an enrolment's
 * `totp.qr_code` (supabase-js turns it into a `data:image/svg+xml` address for an
 * `<img>`). Encoded by `qrcode-generator` at error-correction level H, as GoTrue's; drawn
 * here as one path of black squares on white with the four-module quiet zone scanners
 * need. The text holds no `#` or `%`, so it is a valid data address without encoding.
 */
import qrcode from 'qrcode-generator';

const moduleSize = 3;
const quietZone = 4;

/** The dark modules of `text`'s QR code, row by row (true is dark). */
export function qrModules(text: string): boolean[][] {
  const code = qrcode(0, 'H');
  code.addData(text, 'Byte');
  code.make();
  const count = code.getModuleCount();
  return Array.from({ length: count }, (_, row) => Array.from({ length: count }, (_, col) => code.isDark(row, col)));
}

export function qrSvg(text: string): string {
  const modules = qrModules(text);
  const side = (modules.length + 2 * quietZone) * moduleSize;
  const squares: string[] = [];
  modules.forEach((cells, row) =>
    cells.forEach((dark, col) => {
      if (dark) squares.push(`M${(col + quietZone) * moduleSize} ${(row + quietZone) * moduleSize}h${moduleSize}v${moduleSize}h-${moduleSize}z`);
    }),
  );
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${side}" height="${side}" viewBox="0 0 ${side} ${side}" shape-rendering="crispEdges">` +
    `<rect width="${side}" height="${side}" fill="white"/><path fill="black" d="${squares.join('')}"/></svg>`
  );
}
