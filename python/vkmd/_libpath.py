# Where libvkmd is, tried after $VKMD_LIBRARY: absolute, or relative to this
# package. The build and the install write their own copy of this file.
LIBRARY_PATHS = []
