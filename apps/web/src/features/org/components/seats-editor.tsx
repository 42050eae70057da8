import { zodResolver } from '@hookform/resolvers/zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { GroupChangesSchema } from '@patientsim/domain/groups/group-management.schemas';
import { useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { FormTextField } from '../../../components/form-text-field';

/** Seats are typed as text: whole numbers only (spec section 5), within what the server accepts. */
const SeatsFormSchema = z.object({
  seats: z
    .string()
    .trim()
    .regex(/^\d{1,7}$/, 'Seats must be an integer')
    .transform(Number)
    .pipe(GroupChangesSchema.shape.seats.unwrap()),
});
type SeatsFormInput = z.input<typeof SeatsFormSchema>;
type SeatsFormValues = z.output<typeof SeatsFormSchema>;

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
  const { control, handleSubmit, formState } = useForm<SeatsFormInput, unknown, SeatsFormValues>({
    resolver: zodResolver(SeatsFormSchema),
    defaultValues: { seats: String(seats) },
    // One field: what is typed is checked as it is typed, and Save waits for a whole number.
    mode: 'onChange',
  });
  const value = useWatch({ control, name: 'seats' });
  const isUnchanged = value.trim() === String(seats);
  return (
    <Box
      component="form"
      noValidate
      onSubmit={handleSubmit((values) => onSave(values.seats))}
      sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', mt: 2 }}
    >
      <FormTextField
        control={control}
        name="seats"
        label="Seats"
        size="small"
        fullWidth={false}
        margin="none"
        hint=" "
        slotProps={{ htmlInput: { inputMode: 'numeric' } }}
        disabled={isPending}
      />
      <Button type="submit" variant="outlined" disabled={Boolean(formState.errors.seats) || isUnchanged || isPending}>
        Save seats
      </Button>
    </Box>
  );
}
