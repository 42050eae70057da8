/**
 * Shown while the first route of the session loads. It is the loading screen index.html paints
 * before the scripts have run (the markup is the same, the styles are there), so the app renders
 * over it without a visible change. Plain elements rather than MUI's: on a page opened directly
 * (a signed-in page, the sign-up page) this is the app's first render, and MUI's styled components
 * would make it a long task on a slow phone for a screen that is already shown.
 */
export function LoadingScreen() {
  return (
    <main className="first-loading">
      <div role="status" aria-live="polite" className="first-loading-status">
        <span role="progressbar" aria-hidden="true" className="first-loading-spinner">
          <svg viewBox="22 22 44 44">
            <circle cx="44" cy="44" r="20.2" fill="none" strokeWidth="3.6" />
          </svg>
        </span>
        <p>Loading...</p>
      </div>
    </main>
  );
}
