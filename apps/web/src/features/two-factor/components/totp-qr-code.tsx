import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import { useQuery } from '@tanstack/react-query';
import { toString as toQrSvg } from 'qrcode';

const QR_SIZE = 200;

/** The otpauth URI as an SVG QR code, for an `<img>` (drawn here: the secret never leaves the page). */
async function drawQrCode(uri: string): Promise<string> {
  const svg = await toQrSvg(uri, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' });
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

/**
 * The QR code an authenticator app scans. Its text alternative says what it is; the key it holds is
 * shown as text beside it for manual entry.
 */
export function TotpQrCode({ uri }: { uri: string }) {
  const image = useQuery({
    queryKey: ['two-factor', 'qr-code', uri],
    queryFn: () => drawQrCode(uri),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
  });
  if (!image.data) return <Skeleton variant="rectangular" width={QR_SIZE} height={QR_SIZE} />;
  return (
    <Box
      component="img"
      src={image.data}
      width={QR_SIZE}
      height={QR_SIZE}
      alt="QR code to scan with your authenticator app. If you cannot scan it, enter the setup key shown instead."
      sx={{ display: 'block', bgcolor: 'common.white' }}
    />
  );
}

/** The key of an otpauth URI (its `secret` parameter), for entering it by hand; null if it has none. */
export function totpSecretOf(uri: string): string | null {
  try {
    return new URL(uri).searchParams.get('secret');
  } catch {
    return null;
  }
}
