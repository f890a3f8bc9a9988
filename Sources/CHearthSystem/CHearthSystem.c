/* Intentionally empty: this target only exists to expose CHearthSystem.h to Swift. */
#include "CHearthSystem.h"
