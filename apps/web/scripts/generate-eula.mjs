// Writes public/EULA.pdf: the end-user license agreement (version 1.0) as a small,
// standards-conforming PDF with Helvetica text. Run with `node scripts/generate-eula.mjs`.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const title = 'PatientSim End-User License Agreement (version 1.0)';
const paragraphs = [
  'This End-User License Agreement ("Agreement") is a legal agreement between you and the provider of PatientSim ("Provider") for the use of the PatientSim virtual-patient simulation training platform, its scenarios, media and documentation ("Software").',
  '1. License. Provider grants you a non-exclusive, non-transferable, revocable license to use the Software for education and training within the organisation that gave you access, for as long as that organisation holds a valid subscription.',
  '2. Restrictions. You may not copy, modify, distribute, sell, sublicense, reverse engineer or decompile the Software, nor share your account credentials with anyone else.',
  '3. Content. Scenarios you create remain the property of you or your organisation. You grant Provider the rights needed to store, process and display them in order to provide the Software.',
  '4. Not medical advice. The Software is a training tool. Simulated patients, medications and outcomes are for education only and must not be used to diagnose or treat real patients.',
  '5. Privacy. Provider processes personal data as described in its privacy notice, only to provide and improve the Software.',
  '6. Warranty. The Software is provided "as is", without warranty of any kind, to the extent permitted by law.',
  '7. Liability. To the extent permitted by law, Provider is not liable for indirect, incidental or consequential damages arising from the use of the Software.',
  '8. Termination. This Agreement ends when your access ends or when you breach it. Sections 3, 6 and 7 survive termination.',
  '9. Changes. Provider may publish a new version of this Agreement; you will be asked to accept it before you continue using the Software.',
  'By selecting "I agree with the license agreement" you accept this Agreement.',
];

function wrap(text, maxChars) {
  const lines = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && `${line} ${word}`.length > maxChars) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

const escape = (text) => text.replace(/\\/g, '\\\\').replace(/\(/g, '\\(').replace(/\)/g, '\\)');

const content = ['BT', '/F2 15 Tf', '56 780 Td', `(${escape(title)}) Tj`, '/F1 10.5 Tf', '14 TL', 'T*'];
for (const paragraph of paragraphs) {
  content.push('T*');
  for (const line of wrap(paragraph, 95)) content.push(`(${escape(line)}) '`);
}
content.push('ET');
const stream = content.join('\n');

const objects = [
  '<< /Type /Catalog /Pages 2 0 R /Lang (en) /ViewerPreferences << /DisplayDocTitle true >> /Metadata 7 0 R >>',
  '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
  '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R /F2 6 0 R >> >> /Contents 4 0 R >>',
  `<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`,
  '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
];
const xmp = `<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title><rdf:Alt><rdf:li xml:lang="x-default">${title}</rdf:li></rdf:Alt></dc:title></rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="r"?>`;
objects.push(`<< /Type /Metadata /Subtype /XML /Length ${Buffer.byteLength(xmp, 'latin1')} >>\nstream\n${xmp}\nendstream`);
objects.push(`<< /Title (${escape(title)}) /Producer (PatientSim) >>`);

let pdf = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
const offsets = [];
objects.forEach((body, index) => {
  offsets.push(Buffer.byteLength(pdf, 'latin1'));
  pdf += `${index + 1} 0 obj\n${body}\nendobj\n`;
});
const xrefOffset = Buffer.byteLength(pdf, 'latin1');
pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
for (const offset of offsets) pdf += `${String(offset).padStart(10, '0')} 00000 n \n`;
pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info ${objects.length} 0 R >>\nstartxref\n${xrefOffset}\n%%EOF\n`;

const target = fileURLToPath(new URL('../public/EULA.pdf', import.meta.url));
writeFileSync(target, Buffer.from(pdf, 'latin1'));
console.info(`Wrote ${target} (${Buffer.byteLength(pdf, 'latin1')} bytes)`);
