import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PageTitle } from './page-title';

describe('PageTitle', () => {
  it('shows the page heading and names the document after it, with no title element in the page', () => {
    const { container, rerender } = render(<PageTitle title="Log in">Log in</PageTitle>);
    expect(screen.getByRole('heading', { level: 1, name: 'Log in' })).toBeInTheDocument();
    expect(document.title).toBe('Log in | PatientSim');
    expect(container.querySelector('title')).toBeNull();

    rerender(<PageTitle title="Sign up">Sign up</PageTitle>);
    expect(document.title).toBe('Sign up | PatientSim');
  });
});
