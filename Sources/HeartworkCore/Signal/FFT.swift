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
}

/// Iterative in-place radix-2 transform. The first two stages need no multiplications and
/// are done apart; later stages read their twiddles from one contiguous table per stage.
private struct Radix2: Sendable {
    let size: Int
    /// Twiddles of stage length L (L = 8, 16, …, N) at offset L/2 − 4 … : cos and sin of −2πj/L.
    let cosines: [Double]
    let sines: [Double]
    let reversed: [Int]

    init(size: Int) {
        self.size = size
        var cosines = [Double]()
        var sines = [Double]()
        var length = 8
        while length <= size {
            for j in 0..<(length / 2) {
                let angle = -2 * Double.pi * Double(j) / Double(length)
                cosines.append(cos(angle))
                sines.append(sin(angle))
            }
            length <<= 1
        }
        self.cosines = cosines
        self.sines = sines
        var bits = 0
        while 1 << bits < size { bits += 1 }
        reversed = (0..<size).map { index in
            var value = 0
            var remaining = index
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
                reversed.withUnsafeBufferPointer { reversed in
                    for i in 0..<n {
                        let j = reversed[i]
                        if j > i {
                            re.swapAt(i, j)
                            im.swapAt(i, j)
                        }
                    }
                }
                // Length 2: w = 1.
                var k = 0
                while k < n {
                    let (ar, ai, br, bi) = (re[k], im[k], re[k + 1], im[k + 1])
                    re[k] = ar + br
                    im[k] = ai + bi
                    re[k + 1] = ar - br
                    im[k + 1] = ai - bi
                    k += 2
                }
                guard n >= 4 else { return }
                // Length 4: w = 1 and −i.
                k = 0
                while k < n {
                    let (ar, ai, br, bi) = (re[k], im[k], re[k + 2], im[k + 2])
                    re[k] = ar + br
                    im[k] = ai + bi
                    re[k + 2] = ar - br
                    im[k + 2] = ai - bi
                    let (cr, ci, dr, di) = (re[k + 1], im[k + 1], re[k + 3], im[k + 3])
                    // d·(−i) = di − i·dr
                    re[k + 1] = cr + di
                    im[k + 1] = ci - dr
                    re[k + 3] = cr - di
                    im[k + 3] = ci + dr
                    k += 4
                }
                cosines.withUnsafeBufferPointer { c in
                    sines.withUnsafeBufferPointer { s in
                        guard let reBase = re.baseAddress, let imBase = im.baseAddress,
                            let cBase = c.baseAddress, let sBase = s.baseAddress
                        else { return }
                        var length = 8
                        var tableOffset = 0
                        while length <= n {
                            let half = length / 2
                            var start = 0
                            while start < n {
                                // Four butterflies at a time; half is a multiple of 4 from length 8 on.
                                var j = 0
                                while j < half {
                                    let top = start + j
                                    let bottom = top + half
                                    let wr = UnsafeRawPointer(cBase + tableOffset + j).loadUnaligned(as: SIMD4<Double>.self)
                                    let wi = UnsafeRawPointer(sBase + tableOffset + j).loadUnaligned(as: SIMD4<Double>.self)
                                    let br = UnsafeRawPointer(reBase + bottom).loadUnaligned(as: SIMD4<Double>.self)
                                    let bi = UnsafeRawPointer(imBase + bottom).loadUnaligned(as: SIMD4<Double>.self)
                                    let ar = UnsafeRawPointer(reBase + top).loadUnaligned(as: SIMD4<Double>.self)
                                    let ai = UnsafeRawPointer(imBase + top).loadUnaligned(as: SIMD4<Double>.self)
                                    let tr = wr * br - wi * bi
                                    let ti = wr * bi + wi * br
                                    UnsafeMutableRawPointer(reBase + bottom).storeBytes(of: ar - tr, as: SIMD4<Double>.self)
                                    UnsafeMutableRawPointer(imBase + bottom).storeBytes(of: ai - ti, as: SIMD4<Double>.self)
                                    UnsafeMutableRawPointer(reBase + top).storeBytes(of: ar + tr, as: SIMD4<Double>.self)
                                    UnsafeMutableRawPointer(imBase + top).storeBytes(of: ai + ti, as: SIMD4<Double>.self)
                                    j += 4
                                }
                                start += length
                            }
                            tableOffset += half
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
        var chirpRe = [Double](repeating: 0, count: size)
        var chirpIm = chirpRe
        for n in 0..<size {
            let square = (n * n) % (2 * size)
            let angle = -Double.pi * Double(square) / Double(size)
            chirpRe[n] = cos(angle)
            chirpIm[n] = sin(angle)
        }
        chirpReal = chirpRe
        chirpImaginary = chirpIm
        var kernelRe = [Double](repeating: 0, count: padded)
        var kernelIm = kernelRe
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
        var aRe = [Double](repeating: 0, count: padded)
        var aIm = aRe
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
            let re = aRe[k] * scale
            let im = -aIm[k] * scale
            real[k] = re * chirpReal[k] - im * chirpImaginary[k]
            imaginary[k] = re * chirpImaginary[k] + im * chirpReal[k]
        }
    }
}
