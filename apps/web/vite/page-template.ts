/**
 * `#root` of index.html: its page slot (the loading screen between the page comments) with the
 * whitespace around it, which must go too: React hydrates the root's children, and a text node
 * the app does not render would not match.
 */
const ROOT = /<div id="root">\s*<!--page-->[\s\S]*<!--\/page-->\s*<\/div>/;

/** index.html (`template`) with `pageHtml` as the content of `#root`, marked `data-prerendered`. */
export function withPrerenderedPage(template: string, pageHtml: string): string {
  if (!ROOT.test(template)) throw new Error('index.html has no #root with a <!--page--> slot');
  return template.replace(ROOT, () => `<div id="root" data-prerendered>${pageHtml}</div>`);
}
