// Decodes a Heart Rate Measurement (0x2A37) as the server does (Bluetooth HRS 1.0 §3.1):
// flags bit 0 = 16-bit heart rate, bits 1–2 = sensor contact (3 detected, 2 not detected).
// Returns the bpm to race with: 0 when the strap says it has no skin contact.
export function decodeHeartRateMeasurement(view) {
  if (view.byteLength < 2) return null;
  const flags = view.getUint8(0);
  const wide = (flags & 1) !== 0;
  if (wide && view.byteLength < 3) return null;
  const bpm = wide ? view.getUint16(1, true) : view.getUint8(1);
  const contact = (flags & 6) >> 1;
  return contact === 2 ? 0 : bpm;
}

