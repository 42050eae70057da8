import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { CONFIRM_LABELS, REMIND_ME_LABEL } from './popup-slide';
import { writeLoginResult } from '../../../lib/session-store';
import { buildLoginResult } from '../../../testing/factories';
import { stubApi } from '../../../testing/fake-api';
import { renderWithRouter } from '../../../testing/render';
import { NotificationComposer, headerContrastNote } from './notification-composer';

function renderComposer() {
  writeLoginResult(buildLoginResult({ role: 'SUPER_ADMIN' }));
  stubApi();
  renderWithRouter(<NotificationComposer />);
  return within(screen.getByRole('region', { name: 'Preview' }));
}

describe('the announcement composer preview', () => {
  it('shows the popup as its target will see it, as the header and body are typed', async () => {
    const preview = renderComposer();
    expect(preview.getByRole('heading', { name: 'Header' })).toBeInTheDocument();
    expect(preview.getByRole('button', { name: REMIND_ME_LABEL })).toBeInTheDocument();
    expect(preview.getByRole('button', { name: CONFIRM_LABELS.last })).toBeInTheDocument();

    fireEvent.change(screen.getByRole('textbox', { name: /^Header/ }), { target: { value: 'Skills night' } });
    fireEvent.change(screen.getByRole('textbox', { name: /^Body/ }), { target: { value: 'Meet at the ambulance bay.' } });
    expect(preview.getByRole('heading', { name: 'Skills night' })).toBeInTheDocument();
    expect(preview.getByText('Meet at the ambulance bay.')).toBeInTheDocument();
    expect(screen.getByText('12/25')).toBeInTheDocument();
    expect(screen.getByText('26/500')).toBeInTheDocument();

    // A link becomes the popup's 'Go to' button.
    await userEvent.click(screen.getByRole('radio', { name: 'Go To Link' }));
    expect(preview.getByRole('button', { name: 'Go to' })).toBeInTheDocument();
  });

  it('warns when the colour fails 4.5:1 on the black header, and the preview shows the header the popup will use', async () => {
    const preview = renderComposer();
    await userEvent.click(screen.getByRole('radio', { name: 'Indigo' }));
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Indigo reaches only 3.5:1 on the black popup header, below the 4.5:1 text needs. The popup shows this header on white instead (6.0:1).',
    );
    expect(preview.getByRole('heading', { name: 'Header' })).toHaveStyle({
      color: 'rgb(84, 80, 213)',
      backgroundColor: 'rgb(255, 255, 255)',
    });

    await userEvent.click(screen.getByRole('radio', { name: 'Purple' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Purple reaches only 4.3:1 on the black popup header');

    await userEvent.click(screen.getByRole('radio', { name: 'Teal' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByText('Teal on the black popup header: 4.8:1.')).toBeInTheDocument();
    expect(preview.getByRole('heading', { name: 'Header' })).toHaveStyle({ backgroundColor: 'rgb(0, 0, 0)' });
  });

  it('computes the note for every colour of the palette from its contrast', () => {
    expect(headerContrastNote('red')).toEqual({ isWarning: false, text: 'Red on the black popup header: 5.3:1.' });
    expect(headerContrastNote('#5450d5').isWarning).toBe(true);
    expect(headerContrastNote('#b329e3').isWarning).toBe(true);
    expect(headerContrastNote('#ffb300').isWarning).toBe(false);
  });
});
