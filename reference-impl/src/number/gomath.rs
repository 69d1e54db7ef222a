//! Go's float64 `math.Pow` and `math.Log` as they run on amd64.
//!
//! cty's `pow` and `log` functions go through float64, and the last bit of
//! their results shows in the printed number, so the Go algorithms are
//! reproduced operation by operation: `Pow` is Go's portable code, `Log`
//! and `Exp` are Go's amd64 assembly (`Exp` on its FMA path, which Go takes
//! on every CPU with AVX and FMA).
//!
//! Why not Rust's `f64::powf` and `f64::ln` (the platform's libm): their
//! last bit differs from Go's. `10 ^ 0.3` is 1.9952623149688797 in Go and
//! 1.9952623149688795 from `powf`; `log(3)` is 1.0986122886681096 in Go and
//! 1.0986122886681098 from `ln`.

// Constants keep the digits of Go's source so they can be compared.
#![allow(clippy::excessive_precision)]

/// Mirrors math.Pow (pow.go).
pub(crate) fn pow(x: f64, y: f64) -> f64 {
    if y == 0.0 || x == 1.0 {
        return 1.0;
    }
    if y == 1.0 {
        return x;
    }
    if x.is_nan() || y.is_nan() {
        return f64::NAN;
    }
    if x == 0.0 {
        if y < 0.0 {
            if is_odd_int(y) {
                return f64::INFINITY.copysign(x);
            }
            return f64::INFINITY;
        }
        if y > 0.0 {
            if is_odd_int(y) {
                return x;
            }
            return 0.0;
        }
    } else if y.is_infinite() {
        if x == -1.0 {
            return 1.0;
        }
        if (x.abs() < 1.0) == (y == f64::INFINITY) {
            return 0.0;
        }
        return f64::INFINITY;
    } else if x.is_infinite() {
        if x == f64::NEG_INFINITY {
            // Pow(-0, -y); 1/x is -0 here, so this never recurses again.
            return pow(1.0 / x, -y);
        }
        if y < 0.0 {
            return 0.0;
        }
        if y > 0.0 {
            return f64::INFINITY;
        }
    } else if y == 0.5 {
        return x.sqrt();
    } else if y == -0.5 {
        return 1.0 / x.sqrt();
    }

    let (mut yi, mut yf) = modf(y.abs());
    if yf != 0.0 && x < 0.0 {
        return f64::NAN;
    }
    if yi >= 9.223372036854775808e18 {
        // A huge even integer: over- or underflow for every x but -1.
        if x == -1.0 {
            return 1.0;
        }
        if (x.abs() < 1.0) == (y > 0.0) {
            return 0.0;
        }
        return f64::INFINITY;
    }

    // ans = a1 * 2^ae
    let mut a1 = 1.0;
    let mut ae: i64 = 0;

    if yf != 0.0 {
        if yf > 0.5 {
            yf -= 1.0;
            yi += 1.0;
        }
        a1 = exp(yf * log(x));
    }

    // Multiply in successive squarings of x by the bits of yi.
    let (mut x1, mut xe) = frexp(x);
    let mut i = go_f64_to_i64(yi);
    while i != 0 {
        if !(-(1 << 12)..=(1 << 12)).contains(&xe) {
            // The exponent already overflows a float64 either way.
            ae += xe;
            break;
        }
        if i & 1 == 1 {
            a1 *= x1;
            ae += xe;
        }
        x1 *= x1;
        xe <<= 1;
        if x1 < 0.5 {
            x1 += x1;
            xe -= 1;
        }
        i >>= 1;
    }

    if y < 0.0 {
        a1 = 1.0 / a1;
        ae = -ae;
    }
    ldexp(a1, ae)
}

/// Mirrors math.Log on amd64 (log_amd64.s).
pub(crate) fn log(x: f64) -> f64 {
    // Go's 7.07106781186547524401e-01, the same float64.
    const HSQRT2: f64 = std::f64::consts::FRAC_1_SQRT_2;
    const LN2_HI: f64 = 6.93147180369123816490e-01;
    const LN2_LO: f64 = 1.90821492927058770002e-10;
    const L1: f64 = 6.666666666666735130e-01;
    const L2: f64 = 3.999999999940941908e-01;
    const L3: f64 = 2.857142874366239149e-01;
    const L4: f64 = 2.222219843214978396e-01;
    const L5: f64 = 1.818357216161805012e-01;
    const L6: f64 = 1.531383769920937332e-01;
    const L7: f64 = 1.479819860511658591e-01;

    let bits = x.to_bits();
    if bits & !(1u64 << 63) == 0 {
        return f64::NEG_INFINITY;
    }
    if (bits as i64) < 0 {
        return f64::from_bits(0x7FF8_0000_0000_0001);
    }
    if bits >= 0x7FF0_0000_0000_0000 {
        return x;
    }
    // The assembly's frexp does not normalise subnormals.
    let mut f1 = f64::from_bits((bits & 0x000F_FFFF_FFFF_FFFF) | 0x3FE0_0000_0000_0000);
    let mut k = (((bits >> 52) & 0x7FF) as i32 - 0x3FE) as f64;
    // CMPSD "not less than": adjusts when f1 <= sqrt(2)/2.
    let adjust = if HSQRT2 < f1 { 0.0 } else { 1.0 };
    k -= adjust;
    f1 *= adjust + 1.0;
    let f = f1 - 1.0;
    let s = f / (2.0 + f);
    let s2 = s * s;
    let s4 = s2 * s2;
    let t1 = s2 * (((L7 * s4 + L5) * s4 + L3) * s4 + L1);
    let t2 = s4 * ((L6 * s4 + L4) * s4 + L2);
    let r = t1 + t2;
    let hfsq = 0.5 * f * f;
    let inner = s * (r + hfsq) + LN2_LO * k;
    k * LN2_HI - ((hfsq - inner) - f)
}

/// Mirrors math.Exp on amd64 (exp_amd64.s, FMA path).
fn exp(x: f64) -> f64 {
    // Go's 1.4426950408889634073599246810018920, the same float64.
    const LOG2E: f64 = std::f64::consts::LOG2_E;
    const LN2U: f64 = 0.69314718055966295651160180568695068359375;
    const LN2L: f64 = 0.28235290563031577122588448175013436025525412068e-12;
    const OVERFLOW: f64 = 7.09782712893384e+02;
    const C: [f64; 7] = [
        2.4801587301587301587e-5,
        1.9841269841269841270e-4,
        1.3888888888888888889e-3,
        8.3333333333333333333e-3,
        4.1666666666666666667e-2,
        1.6666666666666666667e-1,
        0.5,
    ];

    let bits = x.to_bits();
    if bits & !(1u64 << 63) >= 0x7FF0_0000_0000_0000 {
        if bits == 0xFFF0_0000_0000_0000 {
            return 0.0;
        }
        return x;
    }
    if x > OVERFLOW {
        return f64::INFINITY;
    }
    let k = cvtsd2sl(LOG2E * x);
    let kf = f64::from(k);
    let mut x0 = (-kf).mul_add(LN2U, x);
    x0 = (-kf).mul_add(LN2L, x0);
    x0 *= 0.0625;
    let mut x1 = C[0];
    for c in &C[1..] {
        x1 = x1.mul_add(x0, *c);
    }
    x1 = x1.mul_add(x0, 1.0);
    x0 *= x1;
    for _ in 0..3 {
        x1 = x0 + 2.0;
        x0 *= x1;
    }
    x1 = x0 + 2.0;
    x0 = x0.mul_add(x1, 1.0);

    // x0 * 2^k, through the subnormal range in two steps.
    let mut bx = k.wrapping_add(0x3FF);
    if bx <= 0 {
        if bx < -52 {
            return 0.0;
        }
        bx += 0x3FE;
        x0 *= f64::from_bits((bx as u64) << 52);
        bx = 1;
    } else if bx >= 0x7FF {
        return f64::INFINITY;
    }
    x0 * f64::from_bits((bx as u64) << 52)
}

/// CVTSD2SL: round to nearest even; out of range gives i32::MIN.
fn cvtsd2sl(v: f64) -> i32 {
    let r = v.round_ties_even();
    if r.is_nan() || !(-2147483648.0..=2147483647.0).contains(&r) {
        i32::MIN
    } else {
        r as i32
    }
}

/// Go's float64 to int64 conversion on amd64 (CVTTSD2SQ): out of range
/// gives i64::MIN.
fn go_f64_to_i64(v: f64) -> i64 {
    if v.is_nan() || !(-9.223372036854775808e18..9.223372036854775808e18).contains(&v) {
        i64::MIN
    } else {
        v as i64
    }
}

/// Mirrors math.isOddInt.
fn is_odd_int(x: f64) -> bool {
    let (xi, xf) = modf(x);
    xf == 0.0 && go_f64_to_i64(xi) & 1 == 1
}

/// Mirrors math.Modf (portable version, used on amd64).
fn modf(f: f64) -> (f64, f64) {
    if f < 1.0 {
        if f < 0.0 {
            let (i, fr) = modf(-f);
            return (-i, -fr);
        }
        if f == 0.0 {
            return (f, f);
        }
        return (0.0, f);
    }
    let mut x = f.to_bits();
    let e = ((x >> 52) & 0x7FF) as i64 - 1023;
    if e < 52 {
        x &= !((1u64 << (52 - e)) - 1);
    }
    let int = f64::from_bits(x);
    (int, f - int)
}

/// Mirrors math.normalize.
fn normalize(x: f64) -> (f64, i64) {
    const SMALLEST_NORMAL: f64 = 2.2250738585072014e-308;
    if x.abs() < SMALLEST_NORMAL {
        return (x * (1u64 << 52) as f64, -52);
    }
    (x, 0)
}

/// Mirrors math.Frexp.
fn frexp(f: f64) -> (f64, i64) {
    if f == 0.0 || f.is_infinite() || f.is_nan() {
        return (f, 0);
    }
    let (f, mut exp) = normalize(f);
    let mut x = f.to_bits();
    exp += ((x >> 52) & 0x7FF) as i64 - 1023 + 1;
    x &= !(0x7FFu64 << 52);
    x |= 1022u64 << 52;
    (f64::from_bits(x), exp)
}

/// Mirrors math.Ldexp.
fn ldexp(frac: f64, exp: i64) -> f64 {
    if frac == 0.0 || frac.is_infinite() || frac.is_nan() {
        return frac;
    }
    let (frac, e) = normalize(frac);
    let mut exp = exp.saturating_add(e);
    let mut x = frac.to_bits();
    exp = exp.saturating_add(((x >> 52) & 0x7FF) as i64 - 1023);
    if exp < -1075 {
        return 0.0f64.copysign(frac);
    }
    if exp > 1023 {
        return if frac < 0.0 {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
    }
    let mut m = 1.0;
    if exp < -1022 {
        exp += 53;
        m = 1.0 / (1u64 << 53) as f64;
    }
    x &= !(0x7FFu64 << 52);
    x |= ((exp + 1023) as u64) << 52;
    m * f64::from_bits(x)
}
