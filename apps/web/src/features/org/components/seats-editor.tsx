import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import { useState } from 'react';

/** Seats are whole numbers (spec section 5). */
function parseSeats(value: string): number | null {
  return /^\d{1,7}$/.test(value.trim()) ? Number(value.trim()) : null;
}

/** The provider's seat editor on the seats card. */
export function SeatsEditor({
  seats,
  isPending,
  onSave,
}: {
  seats: number;
  isPending: boolean;
  onSave: (seats: number) => void;
}) {
  const [value, setValue] = useState(String(seats));
  const parsed = parseSeats(value);
  return (
    <Box
      component="form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (parsed !== null) onSave(parsed);
      }}
      sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', mt: 2 }}
    >
      <TextField
        label="Seats"
        size="small"
        value={value}
        onChange={(event) => setValue(event.target.value)}
        error={parsed === null}
        helperText={parsed === null ? 'Seats must be an integer' : ' '}
        slotProps={{ htmlInput: { inputMode: 'numeric' } }}
        disabled={isPending}
      />
      <Button type="submit" variant="outlined" disabled={parsed === null || parsed === seats || isPending}>
        Save seats
      </Button>
    </Box>
  );
}
