import Foundation

/// Discrete Fourier transform of a fixed length, planned once and reused.
///
/// Powers of two use an iterative radix-2 Cooley–Tukey transform; other lengths use
/// Bluestein's chirp-z algorithm on a power-of-two transform (Bluestein 1970), so short
/// recordings whose Welch segment is the whole series (any length) are exact DFTs too.
/// No FFT package is available on this platform, hence our own (ARCHITECTURE.md).
public struct FFT: Sendable {
    public let size: Int
    private let radix2: Radix2?
    private let bluestein: Bluestein?

    public init(size: Int) {
        precondition(size >= 1, "an FFT needs at least one point")
        self.size = size
        if size & (size - 1) == 0 {
            radix2 = Radix2(size: size)
            bluestein = nil
        } else {
            radix2 = nil
            bluestein = Bluestein(size: size)
        }
    }

    /// In-place forward transform X[k] = Σ x[n]·e^(−2πikn/N) of `real` + i·`imaginary`.
    public func forward(real: inout [Double], imaginary: inout [Double]) {
        precondition(real.count == size && imaginary.count == size, "buffers must match the planned size")
        if let radix2 {
            radix2.transform(real: &real, imaginary: &imaginary)
        } else if let bluestein {
            bluestein.transform(real: &real, imaginary: &imaginary)
        }
    }

    /// Squared magnitudes |X[k]|² for k = 0 … N/2 of two real signals of this length at once,
    /// packed as one complex transform (z = a + i·b) and separated by symmetry.
    public func powerSpectra(_ a: [Double], _ b: [Double]) -> (a: [Double], b: [Double]) {
        var real = a, imaginary = b
        forward(real: &real, imaginary: &imaginary)
        let half = size / 2
        var powerA = [Double](repeating: 0, count: half + 1)
        var powerB = [Double](repeating: 0, count: half + 1)
        for k in 0...half {
            let mirror = (size - k) % size
            // A[k] = (Z[k] + conj Z[N−k]) / 2, B[k] = (Z[k] − conj Z[N−k]) / 2i
            let aRe = (real[k] + real[mirror]) / 2, aIm = (imaginary[k] - imaginary[mirror]) / 2
            let bRe = (imaginary[k] + imaginary[mirror]) / 2, bIm = (real[mirror] - real[k]) / 2
            powerA[k] = aRe * aRe + aIm * aIm
            powerB[k] = bRe * bRe + bIm * bIm
        }
        return (powerA, powerB)
    }
}

/// Iterative in-place radix-2 transform with precomputed twiddles and bit reversal.
private struct Radix2: Sendable {
    let size: Int
    let cosines: [Double]
    let sines: [Double]
    let reversed: [Int]

    init(size: Int) {
        self.size = size
        let half = max(1, size / 2)
        cosines = (0..<half).map { cos(-2 * Double.pi * Double($0) / Double(size)) }
        sines = (0..<half).map { sin(-2 * Double.pi * Double($0) / Double(size)) }
        var bits = 0
        while 1 << bits < size { bits += 1 }
        reversed = (0..<size).map { index in
            var value = 0, remaining = index
            for _ in 0..<bits {
                value = value << 1 | remaining & 1
                remaining >>= 1
            }
            return value
        }
    }

    func transform(real: inout [Double], imaginary: inout [Double]) {
        let n = size
        guard n > 1 else { return }
        real.withUnsafeMutableBufferPointer { re in
            imaginary.withUnsafeMutableBufferPointer { im in
                for i in 0..<n {
                    let j = reversed[i]
                    if j > i {
                        re.swapAt(i, j)
                        im.swapAt(i, j)
                    }
                }
                cosines.withUnsafeBufferPointer { c in
                    sines.withUnsafeBufferPointer { s in
                        var length = 2
                        while length <= n {
                            let halfLength = length / 2
                            let stride = n / length
                            var start = 0
                            while start < n {
                                var twiddle = 0
                                for k in start..<(start + halfLength) {
                                    let wr = c[twiddle], wi = s[twiddle]
                                    let l = k + halfLength
                                    let tr = wr * re[l] - wi * im[l]
                                    let ti = wr * im[l] + wi * re[l]
                                    re[l] = re[k] - tr
                                    im[l] = im[k] - ti
                                    re[k] += tr
                                    im[k] += ti
                                    twiddle += stride
                                }
                                start += length
                            }
                            length <<= 1
                        }
                    }
                }
            }
        }
    }
}

/// Bluestein's algorithm: a length-N DFT as a convolution with a chirp, done by FFTs of a
/// power-of-two length M ≥ 2N − 1.
private struct Bluestein: Sendable {
    let size: Int
    let inner: Radix2
    let chirpReal: [Double]
    let chirpImaginary: [Double]
    /// FFT of the conjugate chirp, zero-padded and wrapped.
    let kernelReal: [Double]
    let kernelImaginary: [Double]

    init(size: Int) {
        self.size = size
        var padded = 1
        while padded < 2 * size - 1 { padded <<= 1 }
        inner = Radix2(size: padded)
        // w[n] = e^(−iπ n²/N); n² taken modulo 2N to keep the angle small and exact.
        var chirpRe = [Double](repeating: 0, count: size), chirpIm = chirpRe
        for n in 0..<size {
            let square = (n * n) % (2 * size)
            let angle = -Double.pi * Double(square) / Double(size)
            chirpRe[n] = cos(angle)
            chirpIm[n] = sin(angle)
        }
        chirpReal = chirpRe
        chirpImaginary = chirpIm
        var kernelRe = [Double](repeating: 0, count: padded), kernelIm = kernelRe
        for n in 0..<size {
            kernelRe[n] = chirpRe[n]
            kernelIm[n] = -chirpIm[n]
            if n > 0 {
                kernelRe[padded - n] = chirpRe[n]
                kernelIm[padded - n] = -chirpIm[n]
            }
        }
        inner.transform(real: &kernelRe, imaginary: &kernelIm)
        kernelReal = kernelRe
        kernelImaginary = kernelIm
    }

    func transform(real: inout [Double], imaginary: inout [Double]) {
        let padded = inner.size
        var aRe = [Double](repeating: 0, count: padded), aIm = aRe
        for n in 0..<size {
            aRe[n] = real[n] * chirpReal[n] - imaginary[n] * chirpImaginary[n]
            aIm[n] = real[n] * chirpImaginary[n] + imaginary[n] * chirpReal[n]
        }
        inner.transform(real: &aRe, imaginary: &aIm)
        for k in 0..<padded {
            let re = aRe[k] * kernelReal[k] - aIm[k] * kernelImaginary[k]
            let im = aRe[k] * kernelImaginary[k] + aIm[k] * kernelReal[k]
            // Inverse transform via conjugation: ifft(x) = conj(fft(conj(x))) / M.
            aRe[k] = re
            aIm[k] = -im
        }
        inner.transform(real: &aRe, imaginary: &aIm)
        let scale = 1 / Double(padded)
        for k in 0..<size {
            let re = aRe[k] * scale, im = -aIm[k] * scale
            real[k] = re * chirpReal[k] - im * chirpImaginary[k]
            imaginary[k] = re * chirpImaginary[k] + im * chirpReal[k]
        }
    }
}
