//! Slider attacks and the choice of backend, made in this one place.
//!
//! Two sibling backends answer "which squares does a rook/bishop on `square` attack given
//! `occupied`": [`pext`] (BMI2 `pext` indexing) and [`magic`] (multiply-shift indexing, any
//! CPU). This layer holds only the lookups and the CPU checks that pick one ([`Backend`],
//! [`Resolved`]); the code compiled for each backend, with its CPU features, is entered
//! through `generator::entry`.
//!
//! Each engine compiled is the whole generator once more for every status and operation, so
//! a build compiles only the engines it can run (cfgs set by build.rs): `engine_pext` on
//! x86-64; `engine_magic_popcnt` on x86-64 targets without POPCNT (elsewhere the plain magic
//! engine has it or needs none); `engine_magic` always. The features `pext-only` and
//! `magic-only` leave out the other backend, and forcing it is then [`BackendUnavailable`].

#[cfg(all(feature = "pext-only", feature = "magic-only"))]
compile_error!("constmove: the features `pext-only` and `magic-only` exclude each other");
#[cfg(all(
    feature = "pext-only",
    not(all(
        target_arch = "x86_64",
        target_feature = "bmi1",
        target_feature = "bmi2",
        target_feature = "popcnt",
        target_feature = "avx2"
    ))
))]
compile_error!(
    "constmove: the feature `pext-only` needs a target with BMI1, BMI2, POPCNT and AVX2: \
     build with RUSTFLAGS=\"-C target-cpu=x86-64-v3\" (or `native` on such a CPU)"
);

pub(crate) mod magic;
#[cfg(target_arch = "x86_64")]
pub(crate) mod pext;

/// This build compiles the PEXT engine.
const HAS_PEXT: bool = cfg!(engine_pext);
/// This build compiles a magic engine.
const HAS_MAGIC: bool = cfg!(engine_magic);
// build.rs's choice, checked against the compiler's: a target with POPCNT has no separate
// magic engine for it.
const _: () = assert!(!(cfg!(engine_magic_popcnt) && cfg!(target_feature = "popcnt")));

use core::fmt;
use core::marker::PhantomData;

/// A slider backend's lookups. Generic code takes `B: Lookup` and calls `B::rook`/`B::bishop`;
/// inlined into code compiled for the backend's CPU features, each is a few instructions.
pub(crate) trait Lookup: 'static {
    /// Squares a rook on `square` attacks.
    fn rook(square: usize, occupied: u64) -> u64;
    /// Squares a bishop on `square` attacks.
    fn bishop(square: usize, occupied: u64) -> u64;
}

/// A backend's lookups as one build of the generator ([`Compiled`]): what the CPU must run
/// for it, and the [`Cpu`] proof a [`Resolved`] holds for it.
pub(crate) trait Build: Lookup + Sized {
    /// Whether this CPU runs the build: its lookups and every feature its entry in
    /// `generator::entry` is compiled with. Asked only by [`Cpu::check`].
    fn cpu_runs() -> bool;
    /// The build named by a proof of it.
    fn compiled(cpu: Cpu<Self>) -> Compiled;
    /// The proof `compiled` holds, if it names this build.
    fn proof(compiled: Compiled) -> Option<Cpu<Self>>;
}

/// Proof that this CPU runs the build of the generator for backend `B` (its lookups and the
/// CPU features of its `#[target_feature]` entry). Zero-sized; made only by [`Cpu::check`],
/// then handed down every walk, so entering `B`'s entry again needs no fresh proof.
pub(crate) struct Cpu<B>(PhantomData<fn() -> B>);

impl<B: Build> Cpu<B> {
    /// The proof for `B` if this CPU runs it (CPUID is asked once per process; see
    /// [`CPU_FACTS`]). The only way to make a `Cpu`.
    #[inline(always)]
    pub(crate) fn check() -> Option<Cpu<B>> {
        if B::cpu_runs() {
            Some(Cpu(PhantomData))
        } else {
            None
        }
    }
}

impl<B> Clone for Cpu<B> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}

impl<B> Copy for Cpu<B> {}

impl<B> PartialEq for Cpu<B> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl<B> Eq for Cpu<B> {}

impl<B> core::hash::Hash for Cpu<B> {
    fn hash<H: core::hash::Hasher>(&self, _: &mut H) {}
}

impl<B> fmt::Debug for Cpu<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Cpu")
    }
}

/// The slider lookup of this build: PEXT when the target has BMI2 at compile time (then
/// `pext` is an instruction every function may use), else magics. For code outside the
/// generator's entries (queries, FEN checks, the public `attacks`): no call asks the CPU.
#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
pub(crate) type Portable = pext::Pext;
/// The slider lookup of this build: PEXT when the target has BMI2 at compile time (then
/// `pext` is an instruction every function may use), else magics. For code outside the
/// generator's entries (queries, FEN checks, the public `attacks`): no call asks the CPU.
#[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
pub(crate) type Portable = magic::Magic;

/// Which slider backend runs the generator.
///
/// # Examples
/// ```
/// use constmove::Backend;
/// let chosen = Backend::Auto.resolve().unwrap();
/// assert!(matches!(chosen, Backend::Pext | Backend::Magic));
/// assert!(Backend::Magic.resolve().is_ok());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Backend {
    /// PEXT when this CPU runs it fast (BMI2, and not an AMD CPU before Zen 3), else magic;
    /// in a one-engine build (`pext-only`, `magic-only`), its engine.
    #[default]
    Auto,
    /// BMI2 `pext` indexing; an error where the CPU lacks BMI2 (or AVX2), or in a
    /// `magic-only` build.
    Pext,
    /// Magic multiply-shift indexing; runs everywhere, but is an error in a `pext-only`
    /// build.
    Magic,
}

/// A backend was forced that this CPU cannot run, or that this build left out (the features
/// `pext-only` and `magic-only`).
///
/// # Examples
/// ```
/// use constmove::{Backend, BackendUnavailable};
/// let message = BackendUnavailable { backend: Backend::Pext }.to_string();
/// assert!(message.contains("pext"));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct BackendUnavailable {
    /// The backend that was asked for.
    pub backend: Backend,
}

impl fmt::Display for BackendUnavailable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.backend {
            Backend::Magic if !HAS_MAGIC => f.write_str(
                "backend `magic` is not in this build (constmove's feature `pext-only`); use `auto` or `pext`",
            ),
            Backend::Pext if !HAS_PEXT && cfg!(target_arch = "x86_64") => f.write_str(
                "backend `pext` is not in this build (constmove's feature `magic-only`); use `auto` or `magic`",
            ),
            backend => write!(
                f,
                "backend `{backend}` is not available on this CPU (it needs BMI2 and AVX2); use `auto` or `magic`",
            ),
        }
    }
}

impl core::error::Error for BackendUnavailable {}

impl Backend {
    /// The concrete backend (`Pext` or `Magic`) this choice runs on this CPU, or an error if
    /// `Pext` was forced on a CPU without BMI2, or a backend the build left out (the features
    /// `pext-only` and `magic-only`) was forced.
    ///
    /// # Examples
    /// ```
    /// use constmove::Backend;
    /// // In every build but `pext-only`, which leaves the magic engine out:
    /// assert_eq!(Backend::Magic.resolve(), Ok(Backend::Magic));
    /// ```
    pub fn resolve(self) -> Result<Backend, BackendUnavailable> {
        match self {
            // A one-engine build runs its engine (`pext-only` needs a BMI2 target).
            Backend::Auto if !HAS_MAGIC => Ok(Backend::Pext),
            Backend::Auto if HAS_PEXT && pext_is_fast() => Ok(Backend::Pext),
            Backend::Auto => Ok(Backend::Magic),
            Backend::Magic if HAS_MAGIC => Ok(Backend::Magic),
            Backend::Pext if HAS_PEXT && pext_is_supported() => Ok(Backend::Pext),
            backend => Err(BackendUnavailable { backend }),
        }
    }

    /// The lower-case name: `auto`, `pext` or `magic`.
    ///
    /// # Examples
    /// ```
    /// use constmove::Backend;
    /// assert_eq!(Backend::Pext.name(), "pext");
    /// assert_eq!("magic".parse::<Backend>(), Ok(Backend::Magic));
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Backend::Auto => "auto",
            Backend::Pext => "pext",
            Backend::Magic => "magic",
        }
    }
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A backend name that is not `auto`, `pext` or `magic`.
///
/// # Examples
/// ```
/// use constmove::{Backend, ParseBackendError};
/// assert_eq!("avx".parse::<Backend>(), Err(ParseBackendError));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ParseBackendError;

impl fmt::Display for ParseBackendError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unknown backend (expected auto, pext or magic)")
    }
}

impl core::error::Error for ParseBackendError {}

impl core::str::FromStr for Backend {
    type Err = ParseBackendError;
    fn from_str(s: &str) -> Result<Backend, ParseBackendError> {
        match s {
            "auto" => Ok(Backend::Auto),
            "pext" => Ok(Backend::Pext),
            "magic" => Ok(Backend::Magic),
            _ => Err(ParseBackendError),
        }
    }
}

/// The CPU executes `pext` and everything else the PEXT entries are compiled with: BMI1,
/// POPCNT and AVX2 (for 32-byte board copies; every BMI2 CPU we know of has it), with the OS saving
/// the YMM registers.
#[cfg(target_arch = "x86_64")]
fn ask_pext_is_supported() -> bool {
    if cfg!(all(
        target_feature = "avx2",
        target_feature = "bmi1",
        target_feature = "bmi2",
        target_feature = "popcnt"
    )) {
        return true;
    }
    use core::arch::x86_64::{__cpuid, __cpuid_count};
    if __cpuid(0).eax < 7 {
        return false;
    }
    let basic = __cpuid(1).ecx;
    let popcnt = ask_popcnt_is_supported();
    let os_saves_state = basic & (1 << 27) != 0;
    let avx = basic & (1 << 28) != 0;
    let extended = __cpuid_count(7, 0).ebx;
    let bmi1 = extended & (1 << 3) != 0;
    let avx2 = extended & (1 << 5) != 0;
    let bmi2 = extended & (1 << 8) != 0;
    if !(popcnt && os_saves_state && avx && avx2 && bmi1 && bmi2) {
        return false;
    }
    // Reads XCR0, the register of CPU state the OS saves on a context switch.
    // SAFETY: CPUID.1:ECX bit 27 (OSXSAVE, read above) is set: the CPU has XGETBV and the
    // OS enabled it, the one feature `_xgetbv` needs.
    let enabled_state = unsafe { core::arch::x86_64::_xgetbv(0) };
    // The OS must save both XMM (bit 1) and YMM (bit 2) state.
    enabled_state & 0b110 == 0b110
}

/// The CPU has POPCNT.
#[cfg(target_arch = "x86_64")]
fn ask_popcnt_is_supported() -> bool {
    cfg!(target_feature = "popcnt") || core::arch::x86_64::__cpuid(1).ecx & (1 << 23) != 0
}

#[cfg(not(target_arch = "x86_64"))]
fn pext_is_supported() -> bool {
    false
}

/// The CPU executes `pext` in hardware: AMD (and Hygon) before family 0x19 (Zen 3) run it
/// in microcode at hundreds of cycles, slower than magics. Asked in BMI2-target builds too:
/// `-C target-cpu=znver2` (or `native` there) has BMI2 and that slow PEXT.
#[cfg(target_arch = "x86_64")]
fn ask_pext_is_fast(supported: bool) -> bool {
    if !supported {
        return false;
    }
    use core::arch::x86_64::__cpuid;
    let vendor = __cpuid(0);
    let is_amd_like = matches!(
        (vendor.ebx, vendor.edx, vendor.ecx),
        (0x6874_7541, 0x6974_6e65, 0x444d_4163) // "AuthenticAMD"
            | (0x6f67_7948, 0x6e65_476e, 0x656e_6975) // "HygonGenuine"
    );
    let signature = __cpuid(1).eax;
    let base_family = (signature >> 8) & 0xF;
    let family = if base_family == 0xF {
        base_family + ((signature >> 20) & 0xFF)
    } else {
        base_family
    };
    !(is_amd_like && family < 0x19)
}

#[cfg(not(target_arch = "x86_64"))]
fn pext_is_fast() -> bool {
    false
}

/// What CPUID answered, asked once per process: in a virtual machine each CPUID traps to the
/// hypervisor (a FEN parse spent 173 µs there), and the answer never changes. A write-once
/// cache of a hardware fact, like `std`'s feature detection: racing threads store the same value.
#[cfg(target_arch = "x86_64")]
static CPU_FACTS: core::sync::atomic::AtomicU8 = core::sync::atomic::AtomicU8::new(0);

#[cfg(target_arch = "x86_64")]
mod fact {
    pub(super) const KNOWN: u8 = 1;
    pub(super) const PEXT_SUPPORTED: u8 = 2;
    pub(super) const PEXT_FAST: u8 = 4;
    pub(super) const POPCNT: u8 = 8;
    pub(super) const WIDE_KNOWN: u8 = 16;
    pub(super) const WIDE_LANES: u8 = 32;
}

/// The CPU's answers, asked on the first call only. Inline: a backend is resolved per
/// position parsed, and each resolution reads the cache twice (the choice, then the proof).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn cpu_facts() -> u8 {
    use core::sync::atomic::Ordering::Relaxed;
    let cached = CPU_FACTS.load(Relaxed);
    if cached & fact::KNOWN != 0 {
        return cached;
    }
    ask_cpu_facts()
}

/// [`cpu_facts`] the first time: asks CPUID and caches the answers.
#[cfg(target_arch = "x86_64")]
#[cold]
#[inline(never)]
fn ask_cpu_facts() -> u8 {
    use core::sync::atomic::Ordering::Relaxed;
    let supported = ask_pext_is_supported();
    let mut facts = fact::KNOWN;
    if supported {
        facts |= fact::PEXT_SUPPORTED;
    }
    if ask_pext_is_fast(supported) {
        facts |= fact::PEXT_FAST;
    }
    if ask_popcnt_is_supported() {
        facts |= fact::POPCNT;
    }
    // `fetch_or`: the lanes' facts may be in already.
    CPU_FACTS.fetch_or(facts, Relaxed);
    facts
}

/// The CPU executes `pext` and what the PEXT entries are compiled with.
#[cfg(target_arch = "x86_64")]
fn pext_is_supported() -> bool {
    cpu_facts() & fact::PEXT_SUPPORTED != 0
}

/// The CPU runs `pext` in hardware, faster than magics.
#[cfg(target_arch = "x86_64")]
fn pext_is_fast() -> bool {
    cpu_facts() & fact::PEXT_FAST != 0
}

/// The CPU runs 512-bit vectors with a popcount a lane (AVX-512 F, VL and VPOPCNTDQ), and
/// what the PEXT entries need: the features of the sparse lane counter
/// (`count::lanes::count_children`). Asked on the first call, not with the other facts: a
/// FEN parse need not pay for it.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn wide_lanes_are_supported() -> bool {
    use core::sync::atomic::Ordering::Relaxed;
    let cached = CPU_FACTS.load(Relaxed);
    if cached & fact::WIDE_KNOWN != 0 {
        return cached & fact::WIDE_LANES != 0;
    }
    ask_wide_lanes()
}

/// [`wide_lanes_are_supported`] the first time: asks CPUID and caches the answer.
#[cfg(target_arch = "x86_64")]
#[cold]
#[inline(never)]
fn ask_wide_lanes() -> bool {
    use core::sync::atomic::Ordering::Relaxed;
    let supported = pext_is_supported() && ask_wide_lanes_are_supported();
    let facts = fact::WIDE_KNOWN | if supported { fact::WIDE_LANES } else { 0 };
    CPU_FACTS.fetch_or(facts, Relaxed);
    supported
}

/// Asks CPUID for AVX-512 F, VL and VPOPCNTDQ, and XCR0 whether the OS saves the mask and
/// ZMM registers.
#[cfg(target_arch = "x86_64")]
fn ask_wide_lanes_are_supported() -> bool {
    use core::arch::x86_64::{__cpuid, __cpuid_count};
    let os_saves_state = __cpuid(1).ecx & (1 << 27) != 0;
    if !os_saves_state || __cpuid(0).eax < 7 {
        return false;
    }
    let extended = __cpuid_count(7, 0);
    let foundation = extended.ebx & (1 << 16) != 0;
    let lengths = extended.ebx & (1 << 31) != 0;
    let popcount = extended.ecx & (1 << 14) != 0;
    if !(foundation && lengths && popcount) {
        return false;
    }
    // SAFETY: CPUID.1:ECX bit 27 (OSXSAVE, read above) is set: the CPU has XGETBV and the
    // OS enabled it.
    let enabled_state = unsafe { core::arch::x86_64::_xgetbv(0) };
    // XMM, YMM, the opmask registers and both halves of the ZMM state (bits 1, 2, 5, 6, 7).
    enabled_state & 0b1110_0110 == 0b1110_0110
}

/// The CPU has POPCNT.
#[cfg(engine_magic_popcnt)]
fn popcnt_is_supported() -> bool {
    cpu_facts() & fact::POPCNT != 0
}

/// A backend resolved to the code that will run, so running on it asks the CPU nothing
/// (CPUID costs tens of microseconds in a virtual machine; work units pay it once).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) struct Resolved(Compiled);

/// The builds of the generator a [`Resolved`] can name: one per backend and set of CPU
/// features its entry is compiled with.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) enum Compiled {
    /// PEXT lookups; BMI1, BMI2, POPCNT and AVX2.
    #[cfg(engine_pext)]
    Pext(Cpu<pext::Pext>),
    /// Magic lookups with POPCNT (every x86-64 CPU since 2008), where the target lacks it.
    #[cfg(engine_magic_popcnt)]
    MagicPopcnt(Cpu<magic::MagicPopcnt>),
    /// Magic lookups with the target's CPU features only.
    #[cfg(engine_magic)]
    Magic(Cpu<magic::Magic>),
}

impl Resolved {
    /// Checks the CPU once for `backend`.
    pub(crate) fn new(backend: Backend) -> Result<Resolved, BackendUnavailable> {
        // `resolve` names only backends this build compiled.
        Ok(Resolved(match backend.resolve()? {
            #[cfg(engine_pext)]
            Backend::Pext => Compiled::Pext(Cpu::check().ok_or(BackendUnavailable {
                backend: Backend::Pext,
            })?),
            #[cfg(engine_magic)]
            _ => Self::magic(),
            #[cfg(not(engine_magic))]
            _ => unreachable!("a build without the magic engine resolves to PEXT"),
        }))
    }

    /// The best magic engine this CPU runs.
    #[cfg(engine_magic)]
    fn magic() -> Compiled {
        #[cfg(engine_magic_popcnt)]
        if let Some(cpu) = Cpu::check() {
            return Compiled::MagicPopcnt(cpu);
        }
        match Cpu::check() {
            Some(magic) => Compiled::Magic(magic),
            None => unreachable!("the magic engine needs only the target's CPU features"),
        }
    }

    /// The automatic choice, which always resolves.
    pub(crate) fn auto() -> Resolved {
        match Resolved::new(Backend::Auto) {
            Ok(resolved) => resolved,
            Err(_) => unreachable!("the automatic backend always resolves"),
        }
    }

    /// The build that runs, with the proof that the CPU supports its features.
    pub(crate) fn compiled(self) -> Compiled {
        self.0
    }

    /// The build `cpu` proves this CPU runs.
    #[inline(always)]
    pub(crate) fn of<B: Build>(cpu: Cpu<B>) -> Resolved {
        Resolved(B::compiled(cpu))
    }

    /// The proof for `B`, if this is `B`'s build.
    #[inline(always)]
    pub(crate) fn proof<B: Build>(self) -> Option<Cpu<B>> {
        B::proof(self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every build resolves `Auto` to an engine it compiled, forcing a backend it left out is
    /// an error naming it, and one-engine builds hold one engine.
    #[test]
    fn builds_resolve_only_the_engines_they_compile() {
        let auto = Backend::Auto.resolve().expect("auto always resolves");
        assert!(match auto {
            Backend::Pext => HAS_PEXT,
            Backend::Magic => HAS_MAGIC,
            Backend::Auto => false,
        });
        let magic = Backend::Magic.resolve();
        assert_eq!(magic.is_ok(), HAS_MAGIC);
        if let Err(err) = magic {
            assert_eq!(err.backend, Backend::Magic);
            assert!(err.to_string().contains("not in this build"), "{err}");
        }
        if let Err(err) = Backend::Pext.resolve() {
            assert_eq!(err.backend, Backend::Pext);
            assert!(err.to_string().contains("`pext`"), "{err}");
        }
        // What runs is what was resolved.
        let resolved = Resolved::new(Backend::Auto).expect("auto always resolves");
        match (auto, resolved.compiled()) {
            #[cfg(engine_pext)]
            (Backend::Pext, Compiled::Pext(_)) => {}
            #[cfg(engine_magic_popcnt)]
            (Backend::Magic, Compiled::MagicPopcnt(_)) => {}
            #[cfg(engine_magic)]
            (Backend::Magic, Compiled::Magic(_)) => {}
            (backend, compiled) => panic!("{backend} resolved to {compiled:?}"),
        }
        assert_eq!(cfg!(feature = "pext-only"), !HAS_MAGIC);
        assert_eq!(
            cfg!(feature = "magic-only") || !cfg!(target_arch = "x86_64"),
            !HAS_PEXT
        );
    }

    /// The cached answer for the sparse lanes is what std's detection finds.
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    #[test]
    fn wide_lanes_follow_the_cpu() {
        let expected = std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512vl")
            && std::is_x86_feature_detected!("avx512vpopcntdq")
            && std::is_x86_feature_detected!("avx2")
            && std::is_x86_feature_detected!("bmi2");
        assert_eq!(wide_lanes_are_supported(), expected);
    }
}
