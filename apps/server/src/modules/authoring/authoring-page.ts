/**
 * The scenario library page's own script (no inline scripts under the CSP). It runs before the
 * authoring guard and fills the page from the login result the guard hands over.
 */
export const CASES_PAGE_SCRIPT = `
const status = document.getElementById('library-status');
window.addEventListener('patientsim:authoring-session', (event) => {
  const payload = event.detail && event.detail.idTokenPayload;
  if (!payload || !status) return;
  const organisations = (payload.groupsData || []).filter((g) => g.parent === null);
  const active = organisations.find((g) => g._id === payload.org);
  if (!active) {
    status.textContent = "You are not a member of any organization yet. To see scenarios, accept an invitation from your organization's administrator: follow the link in your invitation email, or accept a pending invitation on your account page.";
    return;
  }
  if (active.inactive || payload.inactive) {
    status.textContent = active.name + ' is inactive. Inactive organizations have no access to cases. Contact your organization administrator.';
    return;
  }
  status.textContent = 'You are signed in to ' + active.name + '.';
});
`;
