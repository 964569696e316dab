//! Windows: a protected DACL with one entry, full control for the current user.

use std::ffi::c_void;
use std::io;
use std::os::windows::ffi::OsStrExt;
use std::path::Path;
use std::ptr::{null, null_mut};

use windows_sys::Win32::Foundation::{CloseHandle, LocalFree, ERROR_SUCCESS, HANDLE};
use windows_sys::Win32::Security::Authorization::{
    GetNamedSecurityInfoW, SetNamedSecurityInfoW, SE_FILE_OBJECT,
};
use windows_sys::Win32::Security::{
    AddAccessAllowedAceEx, EqualSid, GetAce, GetLengthSid, GetSecurityDescriptorControl,
    GetTokenInformation, InitializeAcl, TokenUser, ACCESS_ALLOWED_ACE, ACE_HEADER, ACL,
    ACL_REVISION, CONTAINER_INHERIT_ACE, DACL_SECURITY_INFORMATION, OBJECT_INHERIT_ACE,
    PROTECTED_DACL_SECURITY_INFORMATION, PSECURITY_DESCRIPTOR, PSID, SE_DACL_PROTECTED,
    TOKEN_QUERY, TOKEN_USER,
};
use windows_sys::Win32::Storage::FileSystem::FILE_ALL_ACCESS;
use windows_sys::Win32::System::Threading::{GetCurrentProcess, OpenProcessToken};

/// winnt.h: an entry that allows (the SystemServices feature only for this one number).
const ACCESS_ALLOWED_ACE_TYPE: u8 = 0;

pub(super) fn make_private(path: &Path) -> io::Result<()> {
    let user = User::current()?;
    // A folder hands its one entry down to what is made in it later.
    let inherit = if std::fs::symlink_metadata(path)?.is_dir() {
        OBJECT_INHERIT_ACE | CONTAINER_INHERIT_ACE
    } else {
        0
    };
    let mut acl = owner_only_acl(user.sid(), inherit)?;
    let wide = wide(path);
    // SAFETY: `wide` ends in a NUL; the ACL is a valid one built above and outlives the call.
    unsafe {
        let status = SetNamedSecurityInfoW(
            wide.as_ptr(),
            SE_FILE_OBJECT,
            DACL_SECURITY_INFORMATION | PROTECTED_DACL_SECURITY_INFORMATION,
            null_mut(),
            null_mut(),
            acl.as_mut_ptr().cast::<ACL>(),
            null(),
        );
        if status != ERROR_SUCCESS {
            return Err(io::Error::from_raw_os_error(status as i32));
        }
    }
    Ok(())
}

/// An ACL with one entry: full control for `sid`, handed down with `inherit`'s flags. Kept
/// in an 8-aligned buffer sized for the header and that entry.
fn owner_only_acl(sid: PSID, inherit: u32) -> io::Result<Vec<u64>> {
    // SAFETY: `sid` is a valid SID; the buffer is as large as the size given to InitializeAcl.
    unsafe {
        let size = size_of::<ACL>() + size_of::<ACCESS_ALLOWED_ACE>() - size_of::<u32>()
            + GetLengthSid(sid) as usize;
        let mut buffer = vec![0u64; size.div_ceil(8)];
        let acl = buffer.as_mut_ptr().cast::<ACL>();
        if InitializeAcl(acl, size as u32, ACL_REVISION) == 0
            || AddAccessAllowedAceEx(acl, ACL_REVISION, inherit, FILE_ALL_ACCESS, sid) == 0
        {
            return Err(io::Error::last_os_error());
        }
        Ok(buffer)
    }
}

pub(super) fn is_private(path: &Path) -> io::Result<bool> {
    let user = User::current()?;
    let wide = wide(path);
    let mut dacl: *mut ACL = null_mut();
    let mut descriptor: PSECURITY_DESCRIPTOR = null_mut();
    // SAFETY: every out pointer is a local; the descriptor is freed below with LocalFree, as
    // GetNamedSecurityInfoW documents, and `dacl` points into it.
    unsafe {
        let status = GetNamedSecurityInfoW(
            wide.as_ptr(),
            SE_FILE_OBJECT,
            DACL_SECURITY_INFORMATION,
            null_mut(),
            null_mut(),
            &mut dacl,
            null_mut(),
            &mut descriptor,
        );
        if status != ERROR_SUCCESS {
            return Err(io::Error::from_raw_os_error(status as i32));
        }
        let verdict = only_user(descriptor, dacl, user.sid());
        LocalFree(descriptor);
        Ok(verdict)
    }
}

/// Protected, not empty-handed (a NULL DACL lets everyone in), and every allowing entry the
/// user's. Deny entries cannot widen anything.
///
/// # Safety
/// `descriptor` and `dacl` from one GetNamedSecurityInfoW call, still alive.
unsafe fn only_user(descriptor: PSECURITY_DESCRIPTOR, dacl: *const ACL, user: PSID) -> bool {
    let (mut control, mut revision) = (0u16, 0u32);
    if GetSecurityDescriptorControl(descriptor, &mut control, &mut revision) == 0
        || control & SE_DACL_PROTECTED == 0
        || dacl.is_null()
    {
        return false;
    }
    let mut allowing = 0;
    for index in 0..u32::from((*dacl).AceCount) {
        let mut ace: *mut c_void = null_mut();
        if GetAce(dacl, index, &mut ace) == 0 {
            return false;
        }
        if (*ace.cast::<ACE_HEADER>()).AceType != ACCESS_ALLOWED_ACE_TYPE {
            continue;
        }
        let sid = (&raw mut (*ace.cast::<ACCESS_ALLOWED_ACE>()).SidStart).cast::<c_void>();
        if EqualSid(sid, user) == 0 {
            return false;
        }
        allowing += 1;
    }
    allowing > 0
}

/// The current process's user, as its token says (a `TOKEN_USER` kept in an aligned buffer).
struct User(Vec<u64>);

impl User {
    fn current() -> io::Result<User> {
        // SAFETY: the token handle is closed on every path; the buffer is sized by the first
        // call and aligned to 8, enough for TOKEN_USER.
        unsafe {
            let mut token: HANDLE = null_mut();
            if OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &mut token) == 0 {
                return Err(io::Error::last_os_error());
            }
            let mut len = 0u32;
            GetTokenInformation(token, TokenUser, null_mut(), 0, &mut len);
            let mut buffer = vec![0u64; (len as usize).div_ceil(8).max(1)];
            let ok =
                GetTokenInformation(token, TokenUser, buffer.as_mut_ptr().cast(), len, &mut len);
            let error = io::Error::last_os_error();
            CloseHandle(token);
            if ok == 0 {
                return Err(error);
            }
            Ok(User(buffer))
        }
    }

    fn sid(&self) -> PSID {
        // SAFETY: filled by GetTokenInformation(TokenUser) in `current`.
        unsafe { (*self.0.as_ptr().cast::<TOKEN_USER>()).User.Sid }
    }
}

fn wide(path: &Path) -> Vec<u16> {
    path.as_os_str().encode_wide().chain(Some(0)).collect()
}

/// Wine 8 keeps no DACL on a file: it answers one made from the Unix mode, never protected, so
/// the rule cannot be read back from a file there. What Studio writes and how it judges a
/// descriptor is shown here on descriptors built in memory, under Wine and on Windows alike.
#[cfg(test)]
mod tests {
    use super::*;
    use windows_sys::Win32::Security::{
        AllocateAndInitializeSid, FreeSid, InitializeSecurityDescriptor,
        SetSecurityDescriptorControl, SetSecurityDescriptorDacl, SECURITY_DESCRIPTOR,
        SECURITY_WORLD_SID_AUTHORITY,
    };

    /// An absolute descriptor holding `acl`, protected or not, judged as a file's would be.
    fn judge(acl: &mut [u64], protected: bool, user: PSID) -> bool {
        // SAFETY: the descriptor and ACL are locals that outlive the calls.
        unsafe {
            let mut descriptor: SECURITY_DESCRIPTOR = std::mem::zeroed();
            let sd = (&raw mut descriptor).cast::<c_void>();
            assert_ne!(InitializeSecurityDescriptor(sd, 1), 0);
            let acl = acl.as_mut_ptr().cast::<ACL>();
            assert_ne!(SetSecurityDescriptorDacl(sd, 1, acl, 0), 0);
            let bits = if protected { SE_DACL_PROTECTED } else { 0 };
            assert_ne!(SetSecurityDescriptorControl(sd, SE_DACL_PROTECTED, bits), 0);
            only_user(sd, acl, user)
        }
    }

    #[test]
    fn the_acl_written_is_the_users_alone_and_judged_so() {
        let user = User::current().unwrap();
        let mut acl =
            owner_only_acl(user.sid(), OBJECT_INHERIT_ACE | CONTAINER_INHERIT_ACE).unwrap();
        // SAFETY: the buffer holds the ACL built above.
        let entries = unsafe { (*acl.as_ptr().cast::<ACL>()).AceCount };
        assert_eq!(entries, 1);
        assert!(
            judge(&mut acl, true, user.sid()),
            "the owner-only ACL was not judged private"
        );
        assert!(
            !judge(&mut acl, false, user.sid()),
            "an unprotected DACL (the parent's entries flow in) was judged private"
        );
    }

    #[test]
    fn an_entry_for_anyone_else_is_not_private() {
        let user = User::current().unwrap();
        // SAFETY: the SID is freed with FreeSid after its last use.
        unsafe {
            let mut everyone: PSID = null_mut();
            let authority = SECURITY_WORLD_SID_AUTHORITY;
            assert_ne!(
                AllocateAndInitializeSid(&authority, 1, 0, 0, 0, 0, 0, 0, 0, 0, &mut everyone),
                0
            );
            let mut acl = owner_only_acl(everyone, 0).unwrap();
            assert!(
                !judge(&mut acl, true, user.sid()),
                "Everyone's entry was judged private"
            );
            FreeSid(everyone);
        }
    }

    #[test]
    fn files_and_folders_take_the_rule_without_error() {
        let t = tempfile::tempdir().unwrap();
        let dir = t.path().join("cache");
        std::fs::create_dir(&dir).unwrap();
        make_private(&dir).unwrap();
        let file = dir.join("keys.json");
        std::fs::write(&file, b"secret").unwrap();
        make_private(&file).unwrap();
        assert_eq!(std::fs::read(&file).unwrap(), b"secret");
    }
}
