//! JSON `number` fields as `f64`, written back the way the engine wrote them: an
//! integral value goes out as an integer (`12`, not `12.0`), so re-encoding a frame
//! reproduces the engine's own JSON for every int it sends.

use serde::{Deserialize, Deserializer, Serializer};

/// Largest magnitude below which every integral f64 is exactly an i64 (2^53).
const EXACT: f64 = 9_007_199_254_740_992.0;

pub(crate) fn write<S: Serializer>(v: f64, s: S) -> Result<S::Ok, S::Error> {
    if v.is_finite() && v.fract() == 0.0 && v.abs() < EXACT {
        s.serialize_i64(v as i64)
    } else {
        s.serialize_f64(v)
    }
}

pub(crate) fn serialize<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
    write(*v, s)
}

pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    f64::deserialize(d)
}

/// `Option<f64>`; pair with `default` and `skip_serializing_if = "Option::is_none"`.
pub(crate) mod opt {
    use super::*;

    pub(crate) fn serialize<S: Serializer>(v: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
        match v {
            Some(v) => write(*v, s),
            None => s.serialize_none(),
        }
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
        Option::<f64>::deserialize(d)
    }
}

/// `Vec<f64>`.
pub(crate) mod vec {
    use super::*;
    use serde::ser::SerializeSeq;

    pub(crate) fn serialize<S: Serializer>(v: &[f64], s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(v.len()))?;
        for n in v {
            seq.serialize_element(&Num(*n))?;
        }
        seq.end()
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<f64>, D::Error> {
        Vec::<f64>::deserialize(d)
    }

    struct Num(f64);

    impl serde::Serialize for Num {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            write(self.0, s)
        }
    }
}
